/**
 * Runs the registration authorization-matrix rows (test/access/rows/registration.ts) against the
 * real database: exact status and body per cell, and a replay of every refused cell proving the
 * database is unchanged and no job was enqueued.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type RegistrationRow,
  registrationRouteKeys,
  registrationRows,
  requestFor,
} from '../access/rows/registration.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

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

function send(row: RegistrationRow) {
  return app.inject({ ...requestFor(row, world), headers: bearer(world.secrets[row.principal]) });
}

async function jobCount(): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pgboss.job`);
  return res.rows[0]!.n;
}

describe('registration rows', () => {
  it('cover every registered registration route', () => {
    const keys = new Set(registrationRows.map((r) => r.route));
    expect([...keys].sort()).toEqual([...registrationRouteKeys].sort());
    const registered = new Set(registeredRoutes(app).map((r) => `${r.method} ${r.url}`));
    for (const key of registrationRouteKeys) expect(registered.has(key), key).toBe(true);
  });

  it.each(
    registrationRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    if (row.expected.body) expect(res.json()).toEqual(row.expected.body);
  });

  it('replaying every refused cell leaves the database and the job queue unchanged', async () => {
    const refused = registrationRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    const jobs = await jobCount();
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
    expect(await jobCount()).toBe(jobs);
  }, 120_000);
});
