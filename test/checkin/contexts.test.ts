/**
 * Scan context management (docs/decisions.md "Check-in"): create, update, delete; at least one check-in context.
 * Also registrations.first_checked_in_at (drizzle/0016_first_checked_in_at.sql), which scans and
 * these context changes keep: the earliest scanned_at in a checks_in context, for the staff table's
 * sort by check-in.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let A: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const P = '/api/v1';
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, secret?: string) =>
  app.inject({
    method,
    url: `${P}${url}`,
    ...(body === undefined ? {} : { payload: body as object }),
    headers: bearer(secret ?? world.users.eventAdmin.mobile),
  });

async function query<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.deps.database.pool.query<T>(text, params)).rows;
}

describe('scan context management', () => {
  it('creates with defaults (position after the last), trims the name, 409 on a duplicate name', async () => {
    const res = await send('POST', `/events/${A}/scan_contexts`, { name: '  Dinner  ', is_airport: false });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      scan_context: {
        id: expect.any(Number),
        name: 'Dinner',
        checks_in: false,
        is_travel_pickup: false,
        is_airport: false,
        position: 3,
        starts_at: null,
        ends_at: null,
      },
    });
    const dup = await send('POST', `/events/${A}/scan_contexts`, { name: 'dinner' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'A scan context with this name already exists for this event' });
    const list = (await get(app, `${P}/events/${A}/scan_contexts`, world.users.ops.mobile)).json();
    expect(list.scan_contexts.map((c: { name: string }) => c.name)).toEqual([
      'Event check-in',
      'Airport pickup',
      'Lunch',
      'Dinner',
    ]);
  });

  it('validates the body (422)', async () => {
    for (const body of [
      {},
      { name: '   ' },
      { name: 'X', checks_in: 'yes' },
      { name: 'X', is_travel_pickup: true, is_airport: false },
      { name: 'X', starts_at: 'soon' },
      { name: 'X', starts_at: '2026-07-10T10:00:00Z', ends_at: '2026-07-10T09:00:00Z' },
      { name: 'X', position: -1 },
      { name: 'X', colour: 'red' },
    ]) {
      const res = await send('POST', `/events/${A}/scan_contexts`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('updates fields; 404 for a context of another event; keeps one check-in context', async () => {
    const created = (await send('POST', `/events/${A}/scan_contexts`, { name: 'Hotel' })).json().scan_context;
    const res = await send('PATCH', `/events/${A}/scan_contexts/${created.id}`, {
      name: 'Hotel desk',
      is_travel_pickup: true,
      starts_at: '2026-07-10T08:00:00Z',
      ends_at: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scan_context).toMatchObject({
      name: 'Hotel desk',
      is_travel_pickup: true,
      is_airport: true,
      starts_at: '2026-07-10T09:00:00.000000+01:00',
      ends_at: null,
    });
    expect(
      (await send('PATCH', `/events/${A}/scan_contexts/${world.contexts.checkInB}`, { name: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await send('PATCH', `/events/${A}/scan_contexts/abc`, { name: 'x' })).statusCode).toBe(404);
    const off = await send('PATCH', `/events/${A}/scan_contexts/${world.contexts.checkInA}`, {
      checks_in: false,
    });
    expect(off.statusCode).toBe(422);
    expect(off.json()).toEqual({ error: 'An event must keep at least one check-in context' });
    const del = await send('DELETE', `/events/${A}/scan_contexts/${world.contexts.checkInA}`);
    expect(del.statusCode).toBe(422);
    const dupName = await send('PATCH', `/events/${A}/scan_contexts/${created.id}`, { name: 'LUNCH' });
    expect(dupName.statusCode).toBe(409);
  });

  it('deletes a context with its scans and clears hotel_scan_context_id', async () => {
    const created = (
      await send('POST', `/events/${A}/scan_contexts`, { name: 'Hotel check', checks_in: true })
    ).json().scan_context;
    const [uuid] = await query<{ uuid: string }>('SELECT uuid FROM scan_contexts WHERE id = $1', [
      created.id,
    ]);
    await query('UPDATE events SET hotel_scan_context_id = $1 WHERE id = $2', [uuid!.uuid, A]);
    const scan = await send(
      'POST',
      `/events/${A}/scans`,
      { participant_id: world.regs.adultA.id, scan_context_id: created.id },
      world.users.ops.mobile,
    );
    expect(scan.statusCode).toBe(200);
    const del = await send('DELETE', `/events/${A}/scan_contexts/${created.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true, deleted_scans: 1 });
    const [event] = await query<{ h: string | null }>(
      'SELECT hotel_scan_context_id AS h FROM events WHERE id = $1',
      [A],
    );
    expect(event!.h).toBeNull();
    // Now the original check-in context is the last one again.
    expect((await send('DELETE', `/events/${A}/scan_contexts/${world.contexts.checkInA}`)).statusCode).toBe(
      422,
    );
    expect((await send('DELETE', `/events/${A}/scan_contexts/${created.id}`)).statusCode).toBe(404);
  });

  it('only event admins, series roles and global admins manage; denied writes change nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const secret of [
      world.users.ops.mobile,
      world.users.readOnly.mobile,
      world.users.safeguarding.mobile,
      world.users.limited.mobile,
      world.secrets.eventKeyA!,
      world.secrets.seriesKeyS1!,
    ]) {
      expect((await send('POST', `/events/${A}/scan_contexts`, { name: 'Nope' }, secret)).statusCode).toBe(
        403,
      );
      expect(
        (await send('PATCH', `/events/${A}/scan_contexts/${world.contexts.lunchA}`, { name: 'N' }, secret))
          .statusCode,
      ).toBe(403);
      expect(
        (await send('DELETE', `/events/${A}/scan_contexts/${world.contexts.lunchA}`, undefined, secret))
          .statusCode,
      ).toBe(403);
    }
    expect(
      (
        await send(
          'POST',
          `/events/${world.events.C.id}/scan_contexts`,
          { name: 'Nope' },
          world.users.seriesOwner.mobile,
        )
      ).statusCode,
    ).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
    const owner = await send(
      'POST',
      `/events/${world.events.B.id}/scan_contexts`,
      { name: 'B extra' },
      world.users.seriesOwner.mobile,
    );
    expect(owner.statusCode).toBe(201);
  });

  it('parallel turn-offs of two check-in contexts leave one', async () => {
    const second = (
      await send('POST', `/events/${A}/scan_contexts`, { name: 'Second door', checks_in: true })
    ).json().scan_context;
    const [r1, r2] = await Promise.all([
      send('PATCH', `/events/${A}/scan_contexts/${world.contexts.checkInA}`, { checks_in: false }),
      send('PATCH', `/events/${A}/scan_contexts/${second.id}`, { checks_in: false }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 422]);
    const [n] = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scan_contexts WHERE event_id = $1 AND checks_in',
      [A],
    );
    expect(n!.n).toBe(1);
  });
});

/** The column of `id` as an ISO instant (or null), after checking every registration's column. */
async function firstCheckIn(id: number): Promise<string | null> {
  const wrong = await query<{ id: number }>(
    `SELECT r.id FROM registrations r
      WHERE r.first_checked_in_at IS DISTINCT FROM (SELECT min(s.scanned_at) FROM scans s
              JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in WHERE s.registration_id = r.id)`,
  );
  expect(wrong, 'registrations whose first_checked_in_at differs from their scans').toEqual([]);
  const [row] = await query<{ at: string | null }>(
    `SELECT to_char(first_checked_in_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at
       FROM registrations WHERE id = $1`,
    [id],
  );
  return row!.at;
}

// After the tests above: every registration's column is also checked against what they did.
describe('first check-in kept on the registration', () => {
  it('follows scans, offline replays, undo, checks_in switched, changed scan times, context deletion', async () => {
    const reg = await t.deps.db.transaction((tx) =>
      addRegistration(tx, {
        eventId: A,
        email: 'first@checkin.test',
        firstName: 'First',
        lastName: 'Checkin',
        preferredName: null,
        dateOfBirth: '1990-01-01',
        status: 'complete',
      }),
    );
    const context = async (name: string, checksIn: boolean): Promise<number> => {
      const res = await send('POST', `/events/${A}/scan_contexts`, { name, checks_in: checksIn });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().scan_context.id;
    };
    const [door, gate, snack] = [
      await context('Door', true),
      await context('Gate', true),
      await context('Snack', false),
    ];
    const scan = (scan_context_id: number, scanned_at: string, client_scan_id: string) => ({
      participant_id: String(reg.id),
      scan_context_id,
      scanned_at,
      client_scan_id,
    });
    const post = async (body: ReturnType<typeof scan>) => {
      const res = await send('POST', `/events/${A}/scans`, body);
      expect(res.statusCode, res.body).toBe(200);
    };

    // A scan in a context that does not check in leaves it unset.
    await post(scan(snack, '2026-07-10T07:00:00Z', 'snack'));
    expect(await firstCheckIn(reg.id)).toBeNull();
    await post(scan(door, '2026-07-10T12:00:00Z', 'door'));
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T12:00:00Z');
    // An offline scan at the gate, replayed later with an earlier time, becomes the first.
    const bulk = await send('POST', `/events/${A}/scans/bulk`, {
      scans: [scan(gate, '2026-07-10T11:00:00Z', 'gate')],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T11:00:00Z');
    // A later check-in does not move it.
    await post(scan(door, '2026-07-10T13:00:00Z', 'door-again'));
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T11:00:00Z');

    // Undo at the gate: the door's first scan is the first check-in again.
    const undo = await send('DELETE', `/events/${A}/scans/${reg.id}?scan_context_id=${gate}`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T12:00:00Z');

    // The snack context switched to check in: its earlier scan counts; switched back, it does not.
    const on = await send('PATCH', `/events/${A}/scan_contexts/${snack}`, { checks_in: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T07:00:00Z');
    const off = await send('PATCH', `/events/${A}/scan_contexts/${snack}`, { checks_in: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T12:00:00Z');

    // A scan's time corrected in the database (no API changes it): the column follows both ways.
    await query(`UPDATE scans SET scanned_at = '2026-07-10T14:00:00Z' WHERE client_scan_id = 'door'`);
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T13:00:00Z');
    await query(`UPDATE scans SET scanned_at = '2026-07-10T06:00:00Z' WHERE client_scan_id = 'door-again'`);
    expect(await firstCheckIn(reg.id)).toBe('2026-07-10T06:00:00Z');

    // The door deleted with its scans (other check-in contexts remain): no check-in is left.
    const gone = await send('DELETE', `/events/${A}/scan_contexts/${door}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await firstCheckIn(reg.id)).toBeNull();
  });
});

describe('first check-in on an upgraded database', () => {
  it("the migration's backfill sets every registration's column and leaves updated_at alone", async () => {
    // Every registration of A scanned at one of its check-in contexts, an hour apart.
    await query(
      `INSERT INTO scans (event_id, registration_id, scan_context_id, source, outcome, scanned_at)
       SELECT r.event_id, r.id, sc.id, 'manual', 'scanned', timestamptz '2026-07-11T08:00:00Z' + r.id * interval '1 hour'
         FROM registrations r
         JOIN LATERAL (SELECT id FROM scan_contexts WHERE event_id = r.event_id AND checks_in LIMIT 1) sc ON true
        WHERE r.event_id = $1`,
      [A],
    );
    // The state just after the migration's ALTER TABLE: scans exist, the column is empty.
    await query('ALTER TABLE registrations DISABLE TRIGGER registrations_set_updated_at');
    await query('UPDATE registrations SET first_checked_in_at = NULL');
    await query('ALTER TABLE registrations ENABLE TRIGGER registrations_set_updated_at');
    const stamps = 'SELECT id, updated_at::text AS u FROM registrations ORDER BY id';
    const before = await query<{ id: number; u: string }>(stamps);
    const [checkedIn] = await query<{ n: number }>(
      'SELECT count(DISTINCT s.registration_id)::int AS n FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in',
    );
    expect(checkedIn!.n).toBeGreaterThan(1);
    // The migration's own last three statements (the backfill between the trigger switches).
    const migration = readFileSync(
      new URL('../../drizzle/0016_first_checked_in_at.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint').slice(-3)) await query(statement);
    const [n] = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM registrations WHERE first_checked_in_at IS NOT NULL',
    );
    expect(n!.n).toBe(checkedIn!.n);
    await firstCheckIn(world.regs.adultA.id); // every registration's column against its scans
    expect(await query(stamps)).toEqual(before);
  });
});
