/**
 * POST /events/{e}/scans requests that arrive together (scan-batch.ts, drizzle/0007_scan_batch.sql)
 * and concurrent token lookups (access/authenticate.ts) against the real database: requests are
 * recorded in one transaction, yet each gets its own answer (outcome, dedupe, 404, 422, travel
 * pickup, its own caller's scanner and field visibility, its own credential's 401/403), and every
 * scan is stored once. A batch statement that fails as a whole is retried request by request.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
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

type Json = Record<string, unknown> & { scan: { id: number; scanner: { id: number } | null } };

function scan(body: Record<string, unknown>, secret = world.users.ops.mobile, event: number | string = A) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/events/${event}/scans`,
    payload: body,
    headers: bearer(secret),
  });
}

async function newReg(tag: string) {
  return t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId: A,
      email: `${tag}@batch.test`,
      firstName: tag,
      lastName: 'Batch',
      preferredName: null,
      dateOfBirth: '1990-01-01',
      status: 'complete',
    }),
  );
}

async function query<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.deps.database.pool.query<T>(text, params)).rows;
}

/** The stored scans of these registrations: one row per scan, with its transaction's created_at. */
const storedScans = (ids: number[]) =>
  query<{ registration_id: number; client_scan_id: string | null; created_at: string }>(
    `SELECT registration_id, client_scan_id, created_at::text AS created_at FROM scans
      WHERE registration_id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );

describe('scans sent together', () => {
  it('share one transaction, and each request gets its own answer', async () => {
    const [r1, r2, r3, r4, traveller] = await Promise.all(
      ['one', 'two', 'three', 'four', 'traveller'].map((tag) => newReg(`together-${tag}`)),
    );
    const [travel] = await query<{ id: number }>(
      `INSERT INTO travels (registration_id, direction, mode) VALUES ($1, 'inbound', 'plane') RETURNING id`,
      [traveller!.id],
    );
    await query('INSERT INTO travel_legs (travel_id, position) VALUES ($1, 1)', [travel!.id]);
    const checkIn = world.contexts.checkInA;
    const lunch = world.contexts.lunchA;

    const [a, b, c, d, e, f, g, h, i] = await Promise.all([
      scan({ participant_id: r1!.id, scan_context_id: checkIn, client_scan_id: 'a' }),
      scan({ participant_id: r1!.id, scan_context_id: checkIn, client_scan_id: 'b' }),
      scan({ participant_id: r2!.id, scan_context_id: checkIn, client_scan_id: 'same' }),
      scan({ participant_id: r2!.id, scan_context_id: checkIn, client_scan_id: 'same' }),
      scan({ participant_id: r3!.id, scan_context_id: lunch }, world.users.limited.mobile),
      scan({ participant_id: r4!.id, scan_context_id: lunch }, world.users.safeguarding.mobile),
      scan({ participant_id: 987654321, scan_context_id: checkIn }),
      scan({ participant_id: r1!.id, scan_context_id: world.contexts.checkInC }),
      scan({
        participant_id: traveller!.id,
        scan_context_id: world.contexts.pickupA,
        scanned_at: '2026-07-09T15:00:00Z',
      }),
    ]);
    for (const res of [a, b, c, d, e, f, i]) expect(res!.statusCode, res!.body).toBe(200);
    expect(g!.statusCode).toBe(404);
    expect(g!.json()).toEqual({ error: 'Participant not found for this event' });
    expect(h!.statusCode).toBe(422);
    expect(h!.json()).toEqual({ error: 'scan_context_id does not belong to this event' });

    // Two scans of one registration: one scanned, one already_scanned, same first scan time.
    const [ja, jb] = [a!.json() as Json, b!.json() as Json];
    expect([ja.outcome, jb.outcome].sort()).toEqual(['already_scanned', 'scanned']);
    expect(ja.first_scanned_at).toBe(jb.first_scanned_at);
    // One client_scan_id twice: one row, one answer deduplicated, both with that row.
    const [jc, jd] = [c!.json() as Json, d!.json() as Json];
    expect([jc.deduplicated, jd.deduplicated].sort()).toEqual([false, true]);
    expect(jc.scan.id).toBe(jd.scan.id);
    // Each caller's own scanner and field visibility.
    const [je, jf] = [e!.json() as Json, f!.json() as Json];
    expect(je.scan.scanner?.id).toBe(world.users.limited.id);
    expect(jf.scan.scanner?.id).toBe(world.users.safeguarding.id);
    expect(ja.scan.scanner?.id).toBe(world.users.ops.id);
    expect(je.participant).not.toHaveProperty('phone');
    expect(je.participant).not.toHaveProperty('allergies');
    expect(jf.participant).toHaveProperty('allergies');
    expect(ja.participant).toHaveProperty('phone');
    expect(ja.participant).not.toHaveProperty('allergies');
    // The travel pickup scan (recorded on its own, in a transaction) collected the traveller.
    const ji = i!.json() as {
      outcome: string;
      participant: { travel_inbound: { legs: { travel_picked_up_at: string }[] } };
    };
    expect(ji.outcome).toBe('scanned');
    expect(ji.participant.travel_inbound.legs[0]!.travel_picked_up_at).toBe('2026-07-09T15:00:00.000000Z');

    // Stored once each: a, b, one of c/d, e, f (the 404 and 422 wrote nothing).
    const rows = await storedScans([r1!.id, r2!.id, r3!.id, r4!.id]);
    expect(rows.map((r) => r.client_scan_id ?? '-').sort()).toEqual(['-', '-', 'a', 'b', 'same']);
    // Recorded together: the first request may have found the way free and gone alone, the others
    // queued behind it and were written by one transaction (one created_at, its start time).
    const transactions = new Set(rows.map((r) => r.created_at));
    expect(transactions.size).toBeLessThan(rows.length);
  });

  it('a request whose token lookup was coalesced with others is answered for its own credential', async () => {
    const regs = await Promise.all(['ops', 'admin', 'owner', 'limited'].map((tag) => newReg(`cred-${tag}`)));
    const body = (k: number, id: string) => ({
      participant_id: regs[k]!.id,
      scan_context_id: world.contexts.lunchA,
      client_scan_id: id,
    });
    const byUuid = world.events.A.uuid;
    const results = await Promise.all([
      scan(body(0, 'c-ops'), world.users.ops.mobile),
      scan(body(1, 'c-admin'), world.users.eventAdmin.mobile, byUuid),
      scan(body(2, 'c-owner'), world.users.seriesOwner.mobile),
      scan(body(3, 'c-limited'), world.users.limited.mobile, byUuid),
      scan(body(0, 'c-readonly'), world.users.readOnly.mobile),
      scan(body(0, 'c-expired'), world.secrets.expiredMobile!),
      scan(body(0, 'c-revoked'), world.secrets.revokedMobile!, byUuid),
      scan(body(0, 'c-other'), world.users.ops.mobile, world.events.C.id),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 403, 401, 401, 403]);
    const scanners = results.slice(0, 4).map((r) => (r.json() as Json).scan.scanner?.id);
    expect(scanners).toEqual([
      world.users.ops.id,
      world.users.eventAdmin.id,
      world.users.seriesOwner.id,
      world.users.limited.id,
    ]);
    for (const res of results.slice(5, 7)) expect(res.json()).toEqual({ error: 'Unauthorized' });
    // The refused requests wrote nothing.
    const rows = await storedScans(regs.map((r) => r.id));
    expect(rows.map((r) => r.client_scan_id).sort()).toEqual(['c-admin', 'c-limited', 'c-ops', 'c-owner']);
  });

  it('a batch statement that fails as a whole is retried request by request', async () => {
    // Fault injection in the real database: any scan written by the batch statement raises a
    // unique violation (as a race on client_scan_id would); scans written one by one pass. The
    // sequence counts the failed batches (nextval survives the rollback).
    await query(`CREATE SEQUENCE test_failed_batches`);
    await query(`CREATE FUNCTION test_fail_batch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_query() LIKE '%muster_scan_items(%' THEN
          PERFORM nextval('test_failed_batches');
          RAISE EXCEPTION 'injected' USING ERRCODE = 'unique_violation';
        END IF;
        RETURN NEW;
      END $$`);
    await query(
      `CREATE TRIGGER test_fail_batch BEFORE INSERT ON scans FOR EACH ROW EXECUTE FUNCTION test_fail_batch()`,
    );
    try {
      const regs = await Promise.all([1, 2, 3, 4].map((n) => newReg(`fallback-${n}`)));
      const results = await Promise.all([
        ...regs.map((r, n) =>
          scan({ participant_id: r.id, scan_context_id: world.contexts.checkInA, client_scan_id: `f${n}` }),
        ),
        scan({ participant_id: regs[0]!.id, scan_context_id: world.contexts.checkInA, client_scan_id: 'f0' }),
        scan({
          participant_id: regs[1]!.id,
          scan_context_id: world.contexts.checkInA,
          client_scan_id: 'again',
        }),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
      const bodies = results.map((r) => r.json() as Json);
      expect(bodies.slice(2, 4).map((b) => b.outcome)).toEqual(['scanned', 'scanned']);
      // f0 twice: the same scan, once deduplicated; regs[1] twice: one scanned, one already_scanned.
      const [first, repeat] = [bodies[0]!, bodies[4]!];
      expect([first.deduplicated, repeat.deduplicated].sort()).toEqual([false, true]);
      expect(repeat.scan.id).toBe(first.scan.id);
      expect([first.outcome, repeat.outcome]).toEqual(['scanned', 'scanned']);
      expect([bodies[1]!.outcome, bodies[5]!.outcome].sort()).toEqual(['already_scanned', 'scanned']);
      const [failed] = await query<{ n: string; called: boolean }>(
        'SELECT last_value::text AS n, is_called AS called FROM test_failed_batches',
      );
      expect(failed!.called).toBe(true);
      const rows = await storedScans(regs.map((r) => r.id));
      expect(rows.map((r) => r.client_scan_id).sort()).toEqual(['again', 'f0', 'f1', 'f2', 'f3']);
    } finally {
      await query('DROP TRIGGER test_fail_batch ON scans');
      await query('DROP FUNCTION test_fail_batch()');
      await query('DROP SEQUENCE test_failed_batches');
    }
  });
});
