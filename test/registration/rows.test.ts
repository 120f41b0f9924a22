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
  type RowFixtures,
  registrationRouteKeys,
  registrationRows,
  requestFor,
  rowKey,
  staffActionOf,
} from '../access/rows/registration.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let fx: RowFixtures;
const STAFF_TARGET = { withdraw: 'withdrawn', reinstate: 'in_progress', reject: 'rejected' } as const;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  const consent = await t.deps.db.execute<{ id: number }>(
    sql`SELECT id FROM consents WHERE registration_id = ${world.regs.adultA.id} ORDER BY id LIMIT 1`,
  );
  const fresh = new Map<string, number>();
  await t.deps.db.transaction(async (tx) => {
    let n = 0;
    for (const row of registrationRows) {
      const action = staffActionOf(row);
      if (!action || row.expected.status !== 200) continue;
      n += 1;
      const event = world.events[row.target[0] as 'A' | 'B' | 'C'];
      const reg = await addRegistration(tx, {
        eventId: event.id,
        email: `staff-row-${n}@example.com`,
        firstName: 'Row',
        lastName: `Person${n}`,
        preferredName: null,
        dateOfBirth: '1990-01-01',
        status: action === 'reinstate' ? 'withdrawn' : 'in_progress',
      });
      fresh.set(rowKey(row), reg.id);
    }
  });
  fx = { ownConsentId: consent.rows[0]!.id, fresh };
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: RegistrationRow) {
  return app.inject({ ...requestFor(row, world, fx), headers: bearer(world.secrets[row.principal]) });
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
    const action = staffActionOf(row);
    if (action && row.expected.status === 200) {
      expect(res.json()).toEqual({
        success: true,
        participant_event_id: fx.fresh.get(rowKey(row)),
        status: STAFF_TARGET[action],
        updated_at: expect.stringMatching(/Z$/),
      });
    }
    if (row.target === 'tickets' && row.expected.status === 200)
      expect(Object.keys(res.json())).toEqual(['tickets']);
    if (row.target === 'ticket:own' && row.expected.status === 200)
      expect(res.json().ticket).toMatchObject({
        id: world.regs.adultA.id,
        status: 'complete',
        confirmed: true,
      });
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
