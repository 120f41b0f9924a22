/**
 * The live tracking job against a fake AeroDataBox server (docs/travel.md "Live tracking"), on the
 * real database: scheduled → delayed → departed → landed with each change written to the leg and
 * its registration's `updated_at` bumped (delta sync carries it), a poll without change bumping
 * nothing, one call per flight and date, one push and one feed entry when the journey lands (not
 * one per poll), a cancellation and a diversion, the call budget honoured, and a pause after a
 * provider error.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { trackFlights } from '../../src/modules/travel/tracking.service.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeFlights, sector, startFakeFlights } from '../support/flights-fake.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let fake: FakeFlights;
let world: World;

const MIN = 60_000;
const HOUR = 60 * MIN;
/** A fixed clock for the job: the legs are placed around it, and each step moves it on. */
const T0 = new Date(Math.floor(Date.now() / HOUR) * HOUR + 30 * MIN);
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();
/** BA117 JFK → LHR, leaving JFK at T0 + 2 h (New York date), landing at T0 + 9 h. */
const DEP = 2 * HOUR;
const ARR = 9 * HOUR;
const nyDate = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(at(ms));

beforeAll(async () => {
  fake = await startFakeFlights();
  t = await startTestApp({
    MUSTER_FLIGHTS_PROVIDER: 'aerodatabox',
    MUSTER_FLIGHTS_URL: fake.url,
    MUSTER_FLIGHTS_API_KEY: 'test-flights-key',
    MUSTER_FLIGHTS_POLL_MINUTES: '5',
  });
  world = await buildWorld(t.deps);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function one<T extends Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T> {
  return (await t.deps.db.execute(query)).rows[0] as T;
}
const leg = (id: number) =>
  one<{ live_status: string | null; live_departure_time: string | null; live_arrival_time: string | null }>(
    sql`SELECT live_status, live_departure_time::text, live_arrival_time::text FROM travel_legs WHERE id = ${id}`,
  );
const updatedAt = async () =>
  (
    await one<{ u: string }>(
      sql`SELECT updated_at::text AS u FROM registrations WHERE id = ${world.regs.adultA.id}`,
    )
  ).u;
const count = async (query: ReturnType<typeof sql>) => Number((await one<{ n: number }>(query)).n);
const pushJobs = () =>
  count(sql`SELECT ((SELECT count(*) FROM pgboss.job WHERE name = 'push-send' AND data->>'kind' = 'flight_landed') +
                    (SELECT count(*) FROM pgboss.archive WHERE name = 'push-send' AND data->>'kind' = 'flight_landed'))::int AS n`);
const feedEntries = () => count(sql`SELECT count(*)::int AS n FROM scan_feed WHERE kind = 'flight_landed'`);
const track = (ms: number, deps: Deps = t.deps) => trackFlights(deps, { now: at(ms) });
const answer = (status: string, extra: { revisedDep?: string; revisedArr?: string } = {}) =>
  fake.setFlight('BA117', nyDate(DEP), [
    sector({ code: 'BA117', from: 'JFK', to: 'LHR', dep: iso(DEP), arr: iso(ARR), status, ...extra }),
  ]);

beforeEach(async () => {
  // The adult's inbound journey: leg 1 not tracked (no flight code), leg 2 BA117 JFK → LHR.
  await t.deps.db.execute(sql`UPDATE travel_legs SET flight_code = NULL WHERE id = ${world.legs.inboundA1}`);
  await t.deps.db.execute(sql`UPDATE travel_legs SET flight_code = 'BA117', departure_airport = 'JFK',
      arrival_airport = 'LHR', departure_time = ${iso(DEP)}, arrival_time = ${iso(ARR)},
      live_status = NULL, live_departure_time = NULL, live_arrival_time = NULL WHERE id = ${world.legs.inboundA2}`);
  await t.deps.db.execute(sql`DELETE FROM travel_leg_tracking`);
  await t.deps.db.execute(sql`DELETE FROM flight_tracking_usage`);
});

describe('flight-track job', () => {
  it('follows scheduled → delayed → departed → landed, bumping updated_at on each change only', async () => {
    const legId = world.legs.inboundA2;
    answer('Expected');
    const u0 = await updatedAt();
    const first = await track(0);
    expect(first).toMatchObject({ calls: 1, changed: 1, landed: 0, stopped: null });
    expect(fake.requests.at(-1)!.path).toBe(`/flights/number/BA117/${nyDate(DEP)}`);
    expect((await leg(legId)).live_status).toBe('scheduled');
    const u1 = await updatedAt();
    expect(u1 > u0).toBe(true);
    // Not due again before the poll interval: no call at all.
    expect((await track(MIN)).calls).toBe(0);
    // The same answer later: tracked, but nothing changed, so updated_at stays.
    expect(await track(10 * MIN)).toMatchObject({ calls: 1, changed: 0 });
    expect(await updatedAt()).toBe(u1);
    const tracked = await one<{ last: string }>(
      sql`SELECT last_tracked_at::text AS last FROM travel_leg_tracking WHERE leg_id = ${legId}`,
    );
    expect(new Date(tracked.last).toISOString()).toBe(iso(10 * MIN));

    answer('Delayed', { revisedDep: iso(DEP + 45 * MIN), revisedArr: iso(ARR + 40 * MIN) });
    expect((await track(20 * MIN)).changed).toBe(1);
    const delayed = await leg(legId);
    expect(delayed.live_status).toBe('delayed');
    expect(new Date(delayed.live_departure_time!).toISOString()).toBe(iso(DEP + 45 * MIN));
    const u2 = await updatedAt();
    expect(u2 > u1).toBe(true);

    answer('Departed', { revisedDep: iso(DEP + 47 * MIN), revisedArr: iso(ARR + 40 * MIN) });
    await track(DEP + 50 * MIN);
    expect((await leg(legId)).live_status).toBe('departed');
    answer('EnRoute', { revisedDep: iso(DEP + 47 * MIN), revisedArr: iso(ARR + 35 * MIN) });
    await track(DEP + 2 * HOUR);
    expect((await leg(legId)).live_status).toBe('en_route');
    expect(await pushJobs()).toBe(0);

    answer('Arrived', { revisedDep: iso(DEP + 47 * MIN), revisedArr: iso(ARR + 33 * MIN) });
    const landing = await track(ARR + 40 * MIN);
    expect(landing).toMatchObject({ calls: 1, changed: 1, landed: 1 });
    const landed = await leg(legId);
    expect(landed.live_status).toBe('landed');
    expect(new Date(landed.live_arrival_time!).toISOString()).toBe(iso(ARR + 33 * MIN));
    expect(await pushJobs()).toBe(1);
    expect(await feedEntries()).toBe(1);
    const job = await one<{ data: { data: Record<string, unknown>; title: string } }>(
      sql`SELECT data FROM pgboss.job WHERE name = 'push-send' AND data->>'kind' = 'flight_landed'`,
    );
    expect(job.data.data).toMatchObject({
      leg_id: legId,
      participant_event_id: world.regs.adultA.id,
      flight_code: 'BA117',
    });
    // A landed leg is not polled again: no second push, no second feed entry.
    expect((await track(ARR + 2 * HOUR)).calls).toBe(0);
    expect(await pushJobs()).toBe(1);
    expect(await feedEntries()).toBe(1);
  });

  it('records a cancellation and a diversion without announcing a landing', async () => {
    answer('Canceled');
    await track(0);
    expect((await leg(world.legs.inboundA2)).live_status).toBe('cancelled');
    await t.deps.db.execute(
      sql`UPDATE travel_legs SET live_status = NULL WHERE id = ${world.legs.inboundA2}`,
    );
    await t.deps.db.execute(sql`DELETE FROM travel_leg_tracking`);
    answer('Diverted', { revisedDep: iso(DEP), revisedArr: iso(ARR) });
    await track(DEP + HOUR);
    expect((await leg(world.legs.inboundA2)).live_status).toBe('diverted');
    expect(await pushJobs()).toBe(1); // only the landing of the first test
  });

  it('honours the hourly call budget and says so', async () => {
    // Two flights due (BA117 and BA118), a budget of one call an hour.
    await t.deps.db.execute(sql`UPDATE travel_legs SET flight_code = 'BA118', departure_airport = 'JFK',
        departure_time = ${iso(DEP)} WHERE id = ${world.legs.inboundA1}`);
    const tight = {
      ...t.deps,
      config: { ...t.deps.config, flights: { ...t.deps.config.flights, budgetPerHour: 1 } },
    };
    answer('Expected');
    const run = await track(0, tight as Deps);
    expect(run).toMatchObject({ calls: 1, stopped: 'hour' });
    const usage = await one<{ calls: number }>(
      sql`SELECT calls FROM flight_tracking_usage WHERE bucket LIKE 'hour:%'`,
    );
    expect(usage.calls).toBe(1);
    // The next clock hour has a fresh budget.
    expect((await track(HOUR, tight as Deps)).calls).toBe(1);
  });

  it('pauses after a provider error and tries again once the pause is over', async () => {
    answer('Expected');
    fake.failNext(1, 503);
    expect(await track(0)).toMatchObject({ calls: 1, stopped: 'provider_error' });
    expect(await track(30_000)).toMatchObject({ calls: 0, stopped: 'paused' });
    expect(await track(2 * MIN)).toMatchObject({ calls: 1, changed: 1, stopped: null });
  });
});
