/**
 * The demo's flights move with no configuration (docs/travel.md "Demo"): on the embedded database
 * the default provider is `demo` (on PostgreSQL the default is none, so there the test names
 * `demo`); after seeding, one tracking run gives live statuses to the journeys the seed moved to
 * today, and a landed inbound journey is announced.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { trackFlights } from '../../src/modules/travel/tracking.service.js';
import { startTestApp, type TestApp } from '../support/app.js';

const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(onPostgres ? { MUSTER_FLIGHTS_PROVIDER: 'demo' } : {});
}, 60_000);
afterAll(async () => {
  await t?.close();
});

it('tracks the seeded flights of today with the demo provider', async () => {
  // The default on the embedded database (npm start with no configuration) is the demo provider.
  expect(t.deps.config.flights.provider).toBe('demo');
  const now = new Date();
  await t.deps.db.transaction((tx) => seedDemo(tx, { now, participants: 60 }));
  const run = await trackFlights(t.deps, { now });
  expect(run.calls).toBeGreaterThan(0);
  const res = await t.deps.db.execute<{ status: string; n: number }>(
    sql`SELECT live_status AS status, count(*)::int AS n FROM travel_legs WHERE live_status IS NOT NULL GROUP BY 1`,
  );
  const statuses = new Set(res.rows.map((r) => r.status));
  expect(res.rows.reduce((a, r) => a + r.n, 0)).toBeGreaterThanOrEqual(9);
  // Journeys landing 2½ h and 1 h ago have landed; later ones are still scheduled, delayed or flying.
  expect([...statuses].some((s) => s === 'landed' || s === 'arrived')).toBe(true);
  expect([...statuses].some((s) => ['scheduled', 'delayed', 'departed', 'en_route'].includes(s))).toBe(true);
}, 300_000);
