/**
 * Runs the session / revocation / push-token authorization-matrix rows (test/access/rows/sessions.ts)
 * against the real database: exact status and body per cell, coverage of every registered route of
 * these groups, and a replay of every refused (and every `{success:false}`) cell proving that neither
 * the database nor the job queue changed.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  createSessionFixtures,
  requestFor,
  type SessionFixtures,
  type SessionMatrixRow,
  sessionRouteKeys,
  sessionRows,
} from '../access/rows/sessions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';
import { stateOf } from './helpers.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let fixtures: SessionFixtures;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  fixtures = await createSessionFixtures(t.deps, world);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const send = (row: SessionMatrixRow) => app.inject(requestFor(row, fixtures, world));

describe('session, revoke and push-token rows', () => {
  it('cover every principal on every route of these groups, and every registered route of them', () => {
    expect(sessionRows).toHaveLength(PRINCIPALS.length * (1 + 1 + 2 + 2 + 2 + 2));
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      // POST /session (sign-in) belongs to the sign-in rows.
      .filter((k) => /^(DELETE \/api\/v1\/session$|\S+ \/api\/v1\/(session\/|tokens\/|push_tokens))/.test(k))
      .sort();
    expect(registered).toEqual([...sessionRouteKeys].sort());
  });

  it.each(
    sessionRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.expected.status >= 400) {
      expect(Object.keys(body)).toEqual(['error']);
      expect(typeof body.error).toBe('string');
    } else if (row.expected.body !== undefined) expect(body).toEqual(row.expected.body);
    else expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'user']);
  });

  it('replaying every refused and every {success:false} cell leaves the database and the queue unchanged', async () => {
    const inert = sessionRows.filter((r) => r.expected.status >= 400 || r.route.endsWith('/tokens/revoke'));
    expect(inert.length).toBeGreaterThan(150);
    const before = await stateOf(t.deps);
    for (const row of inert) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await stateOf(t.deps)).toEqual(before);
  }, 120_000);
});
