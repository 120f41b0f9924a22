/**
 * Runs the web pages' authorization-matrix rows (test/access/rows/web.ts): every principal gets the
 * same answer (bearer credentials play no part on pages), and refused requests change nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { isRefused, type WebMatrixRow, webRouteKeys, webRows } from '../access/rows/web.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: WebMatrixRow) {
  return app.inject({
    method: row.method,
    url: row.url,
    headers: {
      accept: 'text/html',
      ...(row.payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      ...bearer(world.secrets[row.principal]),
    },
    ...(row.payload === undefined ? {} : { payload: row.payload }),
  });
}

describe('web page rows', () => {
  it('cover every principal on every page route, and every page route is public to the bearer gate', () => {
    expect(webRows).toHaveLength(PRINCIPALS.length * webRouteKeys.length);
    const pages = registeredRoutes(app).filter((r) => !r.url.startsWith('/api/v1'));
    expect(pages.map((r) => `${r.method} ${r.url}`).sort()).toEqual([...webRouteKeys].sort());
    for (const r of pages) expect(r.public, `${r.method} ${r.url}`).toBe('none');
  });

  it.each(webRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const))(
    '%s',
    async (_name, row) => {
      const res = await send(row);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
      const type = String(res.headers['content-type'] ?? '');
      if (row.expected.contentType === 'html') {
        expect(type).toBe('text/html; charset=utf-8');
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
        expect(res.body).toContain('<html lang="en">');
      }
      if (row.expected.contentType === 'css') expect(type).toBe('text/css; charset=utf-8');
      if (row.expected.location) expect(String(res.headers.location)).toContain(row.expected.location);
    },
  );

  it('refused requests change nothing in the database', async () => {
    const refused = webRows.filter(isRefused);
    expect(refused.length).toBeGreaterThan(PRINCIPALS.length);
    const before = await snapshotDb(t.deps);
    for (const row of refused) expect((await send(row)).statusCode).toBe(row.expected.status);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
