/**
 * Runs the staff-edit authorization-matrix rows (test/access/rows/staff-record.ts) against the real
 * database: exact status and error body per cell, the participant payload in the caller's
 * visibility on success, and a replay of every refused cell proving the database and the job queue
 * are unchanged.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  BAD_PROBLEMS,
  type StaffRecordRow,
  staffRecordRequest,
  staffRecordRouteKeys,
  staffRecordRows,
} from '../access/rows/staff-record.js';
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

function send(row: StaffRecordRow) {
  return app.inject({ ...staffRecordRequest(row, world), headers: bearer(world.secrets[row.principal]) });
}

async function jobCount(): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pgboss.job`);
  return res.rows[0]!.n;
}

const SENSITIVE = new Set(['safeguarding', 'admin', 'globalToken']);

describe('staff edit rows', () => {
  it('cover every principal, and the route is registered', () => {
    expect(staffRecordRows).toHaveLength(PRINCIPALS.length * 11);
    const registered = new Set(registeredRoutes(app).map((r) => `${r.method} ${r.url}`));
    for (const key of staffRecordRouteKeys) expect(registered.has(key), key).toBe(true);
  });

  it.each(staffRecordRows.map((r) => [`${r.principal} ${r.target} → ${r.expected.status}`, r] as const))(
    '%s',
    async (_name, row) => {
      const res = await send(row);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
      const body = res.json() as Record<string, unknown>;
      if (row.expected.status === 422) {
        expect(body).toEqual({ error: row.expected.error, problems: BAD_PROBLEMS });
      } else if (row.expected.status >= 400) {
        expect(body).toEqual({ error: row.expected.error });
      } else {
        const p = body.participant as Record<string, unknown>;
        expect(Object.keys(body)).toEqual(['participant']);
        // The answer is in the caller's visibility: sensitive sections only for those who may see them.
        expect('dietary_detail' in p).toBe(SENSITIVE.has(row.principal));
        expect('phone' in p).toBe(row.principal !== 'limited');
      }
    },
  );

  it('replaying every refused cell leaves the database and the job queue unchanged', async () => {
    const refused = staffRecordRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    const jobs = await jobCount();
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
    expect(await jobCount()).toBe(jobs);
  }, 120_000);
});
