/**
 * Runs the ban list's authorization-matrix rows (test/access/rows/bans.ts) against the real
 * database: exact status and error body per cell, and a replay of every denied cell proving the
 * database is unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type BanFixtures,
  banRouteKeys,
  banRows,
  createBanFixtures,
  requestFor,
} from '../access/rows/bans.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let fixtures: BanFixtures;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  fixtures = await createBanFixtures(t.deps, world);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: (typeof banRows)[number]) {
  const req = requestFor(row, fixtures);
  return app.inject({ ...req, headers: bearer(world.secrets[row.principal]) });
}

describe('ban rows', () => {
  it('cover every principal on every ban route, and every registered ban route', () => {
    expect(banRows).toHaveLength(PRINCIPALS.length * (2 + 1 + 3 + 4 + 4));
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => /^\S+ \/api\/v1\/bans/.test(k))
      .sort();
    expect(registered).toEqual([...banRouteKeys].sort());
  });

  it.each(banRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const))(
    '%s',
    async (_name, row) => {
      const res = await send(row);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
      const body = res.json() as Record<string, unknown>;
      if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
      else if (row.expected.status >= 400) expect(typeof body.error).toBe('string');
      else if (row.route === 'GET /api/v1/bans') expect(Array.isArray(body.bans)).toBe(true);
      else expect(Object.keys(body)).toEqual(['ban']);
    },
  );

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = banRows.filter((r) => r.expected.status >= 400);
    expect(refused.length).toBeGreaterThan(300);
    const before = await snapshotDb(t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
