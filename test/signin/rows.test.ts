/**
 * Runs the sign-in routes' authorization-matrix rows (test/access/rows/signin.ts): every principal
 * of the matrix world gets the same answer from these public routes.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { ensureDefaultClients } from '../../src/modules/signin/clients.service.js';
import { type SigninMatrixRow, signinRouteKeys, signinRows } from '../access/rows/signin.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  await ensureDefaultClients(t.deps.db);
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: SigninMatrixRow) {
  return app.inject({
    method: row.method,
    url: row.url,
    remoteAddress: row.remoteAddress,
    headers: { ...row.headers, ...bearer(world.secrets[row.principal]) },
    ...(row.payload === undefined ? {} : { payload: row.payload }),
  });
}

describe('sign-in rows', () => {
  it('cover every principal on every sign-in route, and every registered sign-in route', () => {
    expect(signinRows).toHaveLength(PRINCIPALS.length * 10);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => /^\S+ \/api\/v1\/(oauth\/|session$)/.test(k) && k !== 'DELETE /api/v1/session')
      .sort();
    expect(registered).toEqual([...signinRouteKeys].sort());
    for (const r of registeredRoutes(app).filter((r) => signinRouteKeys.includes(`${r.method} ${r.url}`)))
      expect(r.public).toBe('none');
  });

  it.each(
    signinRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const type = String(res.headers['content-type'] ?? '');
    if (row.expected.contentType === 'html') expect(type).toMatch(/^text\/html/);
    if (row.expected.contentType === 'json') {
      expect(type).toMatch(/^application\/json/);
      const body = res.json() as Record<string, unknown>;
      if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    }
    if (row.expected.status === 302)
      expect(res.headers.location).toMatch(/^muster:\/\/oauth\/callback\?error=/);
  });
});
