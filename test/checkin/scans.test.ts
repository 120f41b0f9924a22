/**
 * Check-in (docs/decisions.md "Check-in") against the real database: scan contexts, scans, dedupe, travel
 * pickup, NFC badge on first check-in, bulk replays, scan feed and undo.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let A: number;
let B: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
  B = world.events.B.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const P = '/api/v1';

/** POST as `secret` (default: ops of A; the series owner for B; `null` = no Authorization header). */
function post(url: string, body: unknown, secret?: string | null) {
  const who =
    secret === null
      ? undefined
      : (secret ??
        (url.startsWith(`/events/${B}/`) ? world.users.seriesOwner.mobile : world.users.ops.mobile));
  return app.inject({ method: 'POST', url: `${P}${url}`, payload: body as object, headers: bearer(who) });
}

async function newReg(eventId: number, tag: string) {
  return t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId,
      email: `${tag}@scan.test`,
      firstName: tag,
      lastName: 'Scanner',
      preferredName: null,
      dateOfBirth: '1990-01-01',
      status: 'complete',
    }),
  );
}

async function query<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.deps.database.pool.query<T>(text, params)).rows;
}

describe('GET /events/{e}/scan_contexts', () => {
  it('lists the contexts by position with every field', async () => {
    const res = await get(app, `${P}/events/${A}/scan_contexts`, world.users.readOnly.mobile);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      scan_contexts: [
        {
          id: world.contexts.checkInA,
          name: 'Event check-in',
          checks_in: true,
          is_travel_pickup: false,
          is_airport: false,
          position: 0,
          starts_at: null,
          ends_at: null,
        },
        {
          id: world.contexts.pickupA,
          name: 'Airport pickup',
          checks_in: false,
          is_travel_pickup: true,
          is_airport: true,
          position: 1,
          starts_at: null,
          ends_at: null,
        },
        {
          id: world.contexts.lunchA,
          name: 'Lunch',
          checks_in: false,
          is_travel_pickup: false,
          is_airport: false,
          position: 2,
          starts_at: null,
          ends_at: null,
        },
      ],
    });
  });

  it('accepts the event UUID, refuses the slug (404), keys (403) and other events (403)', async () => {
    expect(
      (await get(app, `${P}/events/${world.events.A.uuid}/scan_contexts`, world.users.ops.mobile)).statusCode,
    ).toBe(200);
    expect(
      (await get(app, `${P}/events/summit-alpha/scan_contexts`, world.users.ops.mobile)).statusCode,
    ).toBe(404);
    expect((await get(app, `${P}/events/${A}/scan_contexts`, world.secrets.eventKeyA)).statusCode).toBe(403);
    expect(
      (await get(app, `${P}/events/${world.events.C.id}/scan_contexts`, world.users.ops.mobile)).statusCode,
    ).toBe(403);
  });

  it("shows times in the event's UTC offset", async () => {
    await query(
      `UPDATE scan_contexts SET starts_at = '2026-07-10T08:00:00Z', ends_at = '2026-01-10T08:00:00Z' WHERE id = $1`,
      [world.contexts.lunchA],
    );
    const res = await get(app, `${P}/events/${A}/scan_contexts`, world.users.ops.mobile);
    const lunch = (
      res.json() as { scan_contexts: { id: number; starts_at: string; ends_at: string }[] }
    ).scan_contexts.find((c) => c.id === world.contexts.lunchA)!;
    expect(lunch.starts_at).toBe('2026-07-10T09:00:00.000000+01:00');
    expect(lunch.ends_at).toBe('2026-01-10T08:00:00.000000Z');
    await query('UPDATE scan_contexts SET starts_at = NULL, ends_at = NULL WHERE id = $1', [
      world.contexts.lunchA,
    ]);
  });
});

describe('POST /events/{e}/scans', () => {
  it('first scan is scanned, the next already_scanned; response shape', async () => {
    const reg = await newReg(A, 'first');
    const r1 = await post(`/events/${A}/scans`, {
      participant_id: reg.id,
      scan_context_id: world.contexts.lunchA,
      source: 'manual',
      client_scan_id: 'dev1-1',
      scanned_at: '2026-07-10T12:00:00Z',
    });
    expect(r1.statusCode, r1.body).toBe(200);
    const b1 = r1.json();
    expect(Object.keys(b1)).toEqual([
      'success',
      'outcome',
      'first_scan_in_context',
      'first_scanned_at',
      'deduplicated',
      'scan',
      'scan_context',
      'participant',
    ]);
    expect(b1).toMatchObject({
      success: true,
      outcome: 'scanned',
      first_scan_in_context: true,
      first_scanned_at: '2026-07-10T12:00:00.000000Z',
      deduplicated: false,
      scan: {
        participant_event_id: reg.id,
        scan_context_id: world.contexts.lunchA,
        source: 'manual',
        client_scan_id: 'dev1-1',
        scanned_at: '2026-07-10T12:00:00.000000Z',
        scanner: { id: world.users.ops.id, name: world.users.ops.name },
      },
      scan_context: { id: world.contexts.lunchA, name: 'Lunch' },
      participant: { participant_event_id: reg.id, participant_id: reg.personId },
    });
    expect(b1.scan.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const lunch = b1.participant.scans_by_context.find(
      (c: { scan_context_id: number }) => c.scan_context_id === world.contexts.lunchA,
    );
    expect(lunch).toMatchObject({ scan_count: 1, first_scanned_at: '2026-07-10T12:00:00.000000Z' });

    const r2 = await post(`/events/${A}/scans`, {
      participant_id: String(reg.id),
      scan_context_id: world.contexts.lunchA,
      scanned_at: '2026-07-10T11:00:00Z',
    });
    expect(r2.json()).toMatchObject({
      outcome: 'already_scanned',
      first_scan_in_context: false,
      first_scanned_at: '2026-07-10T11:00:00.000000Z',
      deduplicated: false,
      scan: { source: 'qr', client_scan_id: null },
    });
  });

  it('a repeated client_scan_id returns the original result and writes nothing', async () => {
    const reg = await newReg(A, 'dedupe');
    const body = { participant_id: reg.id, scan_context_id: world.contexts.lunchA, client_scan_id: 'x-1' };
    const r1 = (await post(`/events/${A}/scans`, body)).json();
    const before = await snapshotDb(t.deps);
    const r2 = await post(`/events/${A}/scans`, { ...body, scanned_at: '2030-01-01T00:00:00Z' });
    expect(r2.statusCode).toBe(200);
    expect(r2.json()).toEqual({ ...r1, deduplicated: true });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('resolves person ids, the QR payload and badge tokens; unknown → 404', async () => {
    const reg = await newReg(B, 'resolve');
    const ctx = world.contexts.checkInB;
    const byPerson = await post(`/events/${B}/scans`, { participant_id: reg.personId, scan_context_id: ctx });
    expect(byPerson.json().scan.participant_event_id).toBe(reg.id);
    const byQr = await post(`/events/${B}/scans`, { participant_id: `muster://checkin/${reg.personId}` });
    expect(byQr.statusCode).toBe(200);
    expect(byQr.json().scan.participant_event_id).toBe(reg.id);
    const byBadge = await post(`/events/${B}/scans`, { badge_token: 'badge-bob' });
    expect(byBadge.json().scan.participant_event_id).toBe(world.regs.regB.id);
    for (const bad of [
      { participant_id: world.regs.regC.id },
      { participant_id: `muster://checkin/${world.regs.regC.personId}` },
      { participant_id: 'muster://checkin/abc' },
      { participant_id: 'nonsense' },
      { participant_id: 99999999 },
      { badge_token: 'no-such-badge' },
    ]) {
      const res = await post(`/events/${B}/scans`, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(404);
      expect(res.json()).toEqual({ error: 'Participant not found for this event' });
    }
  });

  it('a bare number is a registration id first, then a person id', async () => {
    const rows = await query<{ id: number }>(
      `SELECT r.id FROM registrations r WHERE r.event_id = $1 AND EXISTS (SELECT 1 FROM registrations r2 JOIN people p ON p.id = r2.person_id WHERE r2.event_id = $1 AND p.id = r.id AND r2.id <> r.id)`,
      [A],
    );
    for (const { id } of rows) {
      const res = await post(`/events/${A}/scans`, {
        participant_id: id,
        scan_context_id: world.contexts.lunchA,
      });
      expect(res.json().scan.participant_event_id).toBe(id);
    }
  });

  it('context rules: several contexts need scan_context_id; foreign context → 422', async () => {
    const reg = await newReg(A, 'ctx');
    const none = await post(`/events/${A}/scans`, { participant_id: reg.id });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({
      error: 'scan_context_id is required when the event has several scan contexts',
    });
    const foreign = await post(`/events/${A}/scans`, {
      participant_id: reg.id,
      scan_context_id: world.contexts.checkInB,
    });
    expect(foreign.statusCode).toBe(422);
    expect(
      (await post(`/events/${A}/scans`, { participant_id: reg.id, scan_context_id: 2147483648 })).statusCode,
    ).toBe(422);
  });

  it('validation → 422 (types, enums, unknown fields, bad scanned_at, nothing named)', async () => {
    const ctx = world.contexts.lunchA;
    const reg = world.regs.adultA.id;
    for (const body of [
      {},
      { scan_context_id: ctx },
      { participant_id: reg, scan_context_id: ctx, source: 'laser' },
      { participant_id: reg, scan_context_id: ctx, scanned_at: 'yesterday' },
      { participant_id: reg, scan_context_id: ctx, scanned_at: '2026-02-30T10:00:00Z' },
      { participant_id: reg, scan_context_id: String(ctx) },
      { participant_id: reg, scan_context_id: ctx, extra: 1 },
      { participant_id: true, scan_context_id: ctx },
      { participant_id: reg, scan_context_id: ctx, client_scan_id: 'x'.repeat(201) },
    ]) {
      const res = await post(`/events/${A}/scans`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(typeof res.json().error).toBe('string');
    }
    const bad = await app.inject({
      method: 'POST',
      url: `${P}/events/${A}/scans`,
      payload: '{bad',
      headers: { ...bearer(world.users.ops.mobile), 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('first check-in marks the inbound final leg picked up (once); a non-check-in context does not', async () => {
    const reg = await newReg(A, 'travel');
    const [travel] = await query<{ id: number }>(
      `INSERT INTO travels (registration_id, direction, mode) VALUES ($1, 'inbound', 'plane') RETURNING id`,
      [reg.id],
    );
    await query(`INSERT INTO travel_legs (travel_id, position) VALUES ($1, 1), ($1, 2)`, [travel!.id]);
    const legs = () =>
      query<{ position: number; at: string | null }>(
        `SELECT position, travel_picked_up_at::text AS at FROM travel_legs WHERE travel_id = $1 ORDER BY position`,
        [travel!.id],
      );
    await post(`/events/${A}/scans`, { participant_id: reg.id, scan_context_id: world.contexts.lunchA });
    expect((await legs()).map((l) => l.at)).toEqual([null, null]);
    const res = await post(`/events/${A}/scans`, {
      participant_id: reg.id,
      scan_context_id: world.contexts.checkInA,
      scanned_at: '2026-07-10T09:30:00Z',
    });
    const final = res.json().participant.travel_inbound.legs[1];
    expect(final.travel_picked_up_at).toBe('2026-07-10T09:30:00.000000Z');
    expect(final.airport_picked_up_at).toBe('2026-07-10T09:30:00.000000Z');
    expect(res.json().participant.checked_in_at).toBe('2026-07-10T09:30:00.000000Z');
    await post(`/events/${A}/scans`, {
      participant_id: reg.id,
      scan_context_id: world.contexts.pickupA,
      scanned_at: '2026-07-11T09:30:00Z',
    });
    const after = await legs();
    expect(after[0]!.at).toBeNull();
    expect(after[1]!.at).toMatch(/^2026-07-10 09:30:00/);
  });

  it('with NFC on, the first check-in ensures a badge token; with NFC off it does not', async () => {
    const regB = await newReg(B, 'nfc');
    const res = await post(`/events/${B}/scans`, { participant_id: regB.id });
    const token = res.json().participant.nfc_badge_token;
    expect(typeof token).toBe('string');
    expect(token.length).toBeGreaterThanOrEqual(16);
    const again = await post(`/events/${B}/scans`, { participant_id: regB.id });
    expect(again.json().participant.nfc_badge_token).toBe(token);
    const regA = await newReg(A, 'nonfc');
    await post(`/events/${A}/scans`, { participant_id: regA.id, scan_context_id: world.contexts.checkInA });
    const [row] = await query<{ t: string | null }>(
      'SELECT nfc_badge_token AS t FROM registrations WHERE id = $1',
      [regA.id],
    );
    expect(row!.t).toBeNull();
  });

  it('participant summary follows the caller visibility', async () => {
    const body = { participant_id: world.regs.adultA.id, scan_context_id: world.contexts.lunchA };
    const ops = (await post(`/events/${A}/scans`, body, world.users.ops.mobile)).json().participant;
    const limited = (await post(`/events/${A}/scans`, body, world.users.limited.mobile)).json().participant;
    const sg = (await post(`/events/${A}/scans`, body, world.users.safeguarding.mobile)).json().participant;
    expect(ops).toHaveProperty('phone');
    expect(ops).not.toHaveProperty('allergies');
    expect(limited).not.toHaveProperty('phone');
    expect(limited.travel_inbound).not.toHaveProperty('origin_address');
    expect(sg).toHaveProperty('allergies');
    expect(sg).toHaveProperty('medical_conditions');
  });

  it('updated_at advances after a scan and after an undo (delta sync sees both)', async () => {
    const reg = await newReg(A, 'delta');
    const sync1 = (await get(app, `${P}/events/${A}/participants`, world.users.ops.mobile)).json().synced_at;
    await post(`/events/${A}/scans`, { participant_id: reg.id, scan_context_id: world.contexts.checkInA });
    const d1 = (
      await get(
        app,
        `${P}/events/${A}/participants?updated_since=${encodeURIComponent(sync1)}`,
        world.users.ops.mobile,
      )
    ).json();
    expect(d1.participants.map((p: { participant_event_id: number }) => p.participant_event_id)).toContain(
      reg.id,
    );
    const undo = await app.inject({
      method: 'DELETE',
      url: `${P}/events/${A}/scans/${reg.id}`,
      headers: bearer(world.users.ops.mobile),
    });
    expect(undo.json()).toEqual({
      success: true,
      deleted_scans: 1,
      participant_event_id: reg.id,
      scan_context_id: null,
    });
    const d2 = (
      await get(
        app,
        `${P}/events/${A}/participants?updated_since=${encodeURIComponent(d1.synced_at)}`,
        world.users.ops.mobile,
      )
    ).json();
    const p = d2.participants.find(
      (x: { participant_event_id: number }) => x.participant_event_id === reg.id,
    );
    expect(p.checked_in_at).toBeNull();
  });
});

describe('access to scan writes', () => {
  it('keys, read_only, other events and participants are refused with the DB unchanged', async () => {
    const before = await snapshotDb(t.deps);
    const body = { participant_id: world.regs.adultA.id, scan_context_id: world.contexts.checkInA };
    const cases: [string | null, number, number][] = [
      [world.secrets.eventKeyA!, A, 403],
      [world.secrets.seriesKeyS1!, A, 403],
      [world.secrets.legacyKeyA!, A, 403],
      [world.users.readOnly.mobile, A, 403],
      [world.users.participant.mobile, A, 403],
      [world.users.ops.mobile, world.events.C.id, 403],
      [world.secrets.scopedToken!, A, 403],
      [null, A, 401],
    ];
    for (const [secret, event, status] of cases) {
      const r1 = await post(`/events/${event}/scans`, body, secret);
      expect(r1.statusCode).toBe(status);
      expect(typeof r1.json().error).toBe('string');
      const r2 = await post(
        `/events/${event}/scans/bulk`,
        { scans: [{ ...body, client_scan_id: 'z' }] },
        secret,
      );
      expect(r2.statusCode).toBe(status);
      const r3 = await app.inject({
        method: 'DELETE',
        url: `${P}/events/${event}/scans/${world.regs.adultA.id}`,
        headers: bearer(secret ?? undefined),
      });
      expect(r3.statusCode).toBe(status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('read_only may read scans and contexts; keys may not', async () => {
    expect((await get(app, `${P}/events/${A}/scans`, world.users.readOnly.mobile)).statusCode).toBe(200);
    expect((await get(app, `${P}/events/${A}/scans`, world.secrets.eventKeyA)).statusCode).toBe(403);
  });
});

describe('concurrency', () => {
  it('50 parallel scans of one participant in one context: one scanned, 49 already_scanned', async () => {
    const reg = await newReg(A, 'race50');
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        post(`/events/${A}/scans`, { participant_id: reg.id, scan_context_id: world.contexts.checkInA }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const outcomes = results.map((r) => r.json().outcome as string);
    expect(outcomes.filter((o) => o === 'scanned')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already_scanned')).toHaveLength(49);
    const [n] = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scans WHERE registration_id = $1',
      [reg.id],
    );
    expect(n!.n).toBe(50);
  }, 60_000);

  it('the same client_scan_id sent 10 times in parallel stores one row', async () => {
    const reg = await newReg(A, 'race10');
    const body = { participant_id: reg.id, scan_context_id: world.contexts.checkInA, client_scan_id: 'same' };
    const results = await Promise.all(Array.from({ length: 10 }, () => post(`/events/${A}/scans`, body)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.json().deduplicated === false)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.json().scan.id));
    expect(ids.size).toBe(1);
    const [n] = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scans WHERE registration_id = $1',
      [reg.id],
    );
    expect(n!.n).toBe(1);
  }, 60_000);
});

describe('POST /events/{e}/scans/bulk', () => {
  it('per-item results, errors do not stop the batch; client_scan_id is required', async () => {
    const reg = await newReg(A, 'bulk');
    const res = await post(`/events/${A}/scans/bulk`, {
      scans: [
        { client_scan_id: 'b1', participant_id: reg.id, scan_context_id: world.contexts.checkInA },
        { client_scan_id: 'b2', participant_id: 99999999, scan_context_id: world.contexts.checkInA },
        { client_scan_id: 'b3', participant_id: reg.id, scan_context_id: world.contexts.checkInB },
        { client_scan_id: 'b4', participant_id: reg.id, scan_context_id: world.contexts.checkInA },
        { client_scan_id: 'b1', participant_id: reg.id, scan_context_id: world.contexts.checkInA },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      results: [
        { client_scan_id: 'b1', status: 'ok', outcome: 'scanned', deduplicated: false },
        { client_scan_id: 'b2', status: 'error', error: 'Participant not found for this event' },
        { client_scan_id: 'b3', status: 'error', error: 'scan_context_id does not belong to this event' },
        { client_scan_id: 'b4', status: 'ok', outcome: 'already_scanned', deduplicated: false },
        { client_scan_id: 'b1', status: 'ok', outcome: 'scanned', deduplicated: true },
      ],
    });
    const missing = await post(`/events/${A}/scans/bulk`, { scans: [{ participant_id: reg.id }] });
    expect(missing.statusCode).toBe(422);
    const tooMany = await post(`/events/${A}/scans/bulk`, {
      scans: Array.from({ length: 501 }, (_, i) => ({ client_scan_id: `m${i}`, participant_id: reg.id })),
    });
    expect(tooMany.statusCode).toBe(422);
    expect((await post(`/events/${A}/scans/bulk`, { scans: [] })).json()).toEqual({ results: [] });
  });

  it('three devices replayed twice in shuffled orders converge to the same state', async () => {
    const regs = [await newReg(A, 'conv1'), await newReg(A, 'conv2'), await newReg(A, 'conv3')];
    const ctxs = [world.contexts.checkInA, world.contexts.pickupA, world.contexts.lunchA];
    const devices = [0, 1, 2].map((d) =>
      Array.from({ length: 12 }, (_, i) => ({
        client_scan_id: `dev${d}-${i}`,
        participant_id: regs[(i + d) % 3]!.id,
        scan_context_id: ctxs[(i * 7 + d) % 3]!,
        source: 'nfc' as const,
        scanned_at: new Date(Date.UTC(2026, 6, 10, 8, d * 10 + i, i)).toISOString(),
      })),
    );
    const regIds = regs.map((r) => r.id);
    const state = async () => {
      const rows = await query<{ k: string }>(
        `SELECT registration_id || '|' || scan_context_id || '|' || client_scan_id || '|' || scanned_at::text AS k
           FROM scans WHERE registration_id = ANY($1) ORDER BY 1`,
        [regIds],
      );
      const list = (await get(app, `${P}/events/${A}/participants`, world.users.ops.mobile)).json();
      const scans = list.participants
        .filter((p: { participant_event_id: number }) => regIds.includes(p.participant_event_id))
        .map((p: { participant_event_id: number; scans_by_context: unknown; checked_in_at: unknown }) => [
          p.participant_event_id,
          p.scans_by_context,
          p.checked_in_at,
        ]);
      return { rows: rows.map((r) => r.k), scans };
    };
    let seed = 7;
    const shuffle = <T>(xs: T[]) => {
      const out = [...xs];
      for (let i = out.length - 1; i > 0; i--) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const j = seed % (i + 1);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    // Round 1: devices sync in order 2, 0, 1 with shuffled batches, concurrently.
    const round = async (order: number[]) => {
      const res = await Promise.all(
        order.map((d) => post(`/events/${A}/scans/bulk`, { scans: shuffle(devices[d]!) })),
      );
      for (const r of res) {
        expect(r.statusCode).toBe(200);
        for (const item of r.json().results) expect(item.status).toBe('ok');
      }
    };
    await round([2, 0, 1]);
    const first = await state();
    expect(first.rows).toHaveLength(36);
    await round([1, 2, 0]);
    const second = await state();
    expect(second).toEqual(first);
    // Every context's first_scanned_at is the earliest client time.
    for (const [regId, byContext] of first.scans as [
      number,
      { scan_context_id: number; first_scanned_at: string | null }[],
    ][]) {
      for (const c of byContext) {
        const mine = devices
          .flat()
          .filter((s) => s.participant_id === regId && s.scan_context_id === c.scan_context_id)
          .map((s) => s.scanned_at)
          .sort();
        expect(c.first_scanned_at === null ? undefined : new Date(c.first_scanned_at).toISOString()).toBe(
          mine[0],
        );
      }
    }
    // One `scanned` row per (registration, context) that has scans.
    const scanned = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scans WHERE registration_id = ANY($1) AND outcome = 'scanned' GROUP BY registration_id, scan_context_id`,
      [regIds],
    );
    expect(scanned.every((r) => r.n === 1)).toBe(true);
  }, 60_000);
});

describe('GET /events/{e}/scans and DELETE /events/{e}/scans/{id}', () => {
  it('without since: newest by scanned_at; with since: created_at order and cursor', async () => {
    const all = await get(app, `${P}/events/${A}/scans`, world.users.ops.mobile);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(Object.keys(body).sort()).toEqual(['has_more', 'scans', 'synced_at']);
    expect(body.scans.length).toBeLessThanOrEqual(100);
    const times = body.scans.map((s: { scanned_at: string }) => s.scanned_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(body.synced_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

    const cursor = body.synced_at;
    const reg = await newReg(A, 'feed');
    await post(`/events/${A}/scans`, {
      participant_id: reg.id,
      scan_context_id: world.contexts.lunchA,
      client_scan_id: 'f1',
    });
    await post(`/events/${A}/scans`, {
      participant_id: reg.id,
      scan_context_id: world.contexts.checkInA,
      client_scan_id: 'f2',
    });
    const delta = (
      await get(app, `${P}/events/${A}/scans?since=${encodeURIComponent(cursor)}`, world.users.ops.mobile)
    ).json();
    expect(delta.scans.map((s: { client_scan_id: string }) => s.client_scan_id)).toEqual(['f1', 'f2']);
    expect(delta.has_more).toBe(false);
    const filtered = (
      await get(
        app,
        `${P}/events/${A}/scans?since=${encodeURIComponent(cursor)}&scan_context_id=${world.contexts.lunchA}`,
        world.users.ops.mobile,
      )
    ).json();
    expect(filtered.scans.map((s: { client_scan_id: string }) => s.client_scan_id)).toEqual(['f1']);
    const empty = (
      await get(
        app,
        `${P}/events/${A}/scans?since=${encodeURIComponent(delta.synced_at)}`,
        world.users.ops.mobile,
      )
    ).json();
    expect(empty.scans).toEqual([]);
    expect(
      (await get(app, `${P}/events/${A}/scans?since=yesterday`, world.users.ops.mobile)).statusCode,
    ).toBe(422);
    expect(
      (
        await get(
          app,
          `${P}/events/${A}/scans?scan_context_id=${world.contexts.checkInB}`,
          world.users.ops.mobile,
        )
      ).statusCode,
    ).toBe(422);
  });

  it('pages with has_more at 500 and resumes from synced_at', async () => {
    const reg = await newReg(B, 'pages');
    const cursor = (await get(app, `${P}/events/${B}/scans`, world.users.admin.mobile)).json().synced_at;
    await t.deps.database.pool.query(
      `INSERT INTO scans (event_id, registration_id, scan_context_id, outcome, scanned_at, created_at, client_scan_id)
       SELECT $1, $2, $3, 'already_scanned', now(), now() + (g || ' microseconds')::interval - interval '1 hour', 'p' || g
         FROM generate_series(1, 520) g`,
      [B, reg.id, world.contexts.checkInB],
    );
    await t.deps.database.pool.query(
      `UPDATE scans SET created_at = created_at + interval '1 hour' WHERE client_scan_id LIKE 'p%' AND registration_id = $1`,
      [reg.id],
    );
    const p1 = (
      await get(app, `${P}/events/${B}/scans?since=${encodeURIComponent(cursor)}`, world.users.admin.mobile)
    ).json();
    expect(p1.scans).toHaveLength(500);
    expect(p1.has_more).toBe(true);
    expect(p1.synced_at).toBe(p1.scans[499].created_at);
    const p2 = (
      await get(
        app,
        `${P}/events/${B}/scans?since=${encodeURIComponent(p1.synced_at)}`,
        world.users.admin.mobile,
      )
    ).json();
    expect(p2.scans).toHaveLength(20);
    expect(p2.has_more).toBe(false);
    const newest = (await get(app, `${P}/events/${B}/scans`, world.users.admin.mobile)).json();
    expect(newest.scans).toHaveLength(100);
    expect(newest.has_more).toBe(true);
  });

  it('pages through > 500 scans sharing one created_at: every row exactly once, plain cursors', async () => {
    const reg = await newReg(B, 'ties');
    const cursor = (await get(app, `${P}/events/${B}/scans`, world.users.admin.mobile)).json().synced_at;
    // One statement: now() is the same for every row, so all 1,203 rows share created_at (more
    // than two pages), then a later row with its own created_at.
    const inserted = await query<{ id: string }>(
      `INSERT INTO scans (event_id, registration_id, scan_context_id, outcome, scanned_at, created_at, client_scan_id)
       SELECT $1, $2, $3, 'already_scanned', now(), now(), 'tie' || g
         FROM generate_series(1, 1203) g RETURNING id::text`,
      [B, reg.id, world.contexts.checkInB],
    );
    const later = await query<{ id: string }>(
      `INSERT INTO scans (event_id, registration_id, scan_context_id, outcome, scanned_at, created_at, client_scan_id)
       VALUES ($1, $2, $3, 'already_scanned', now(), now() + interval '1 millisecond', 'tie-later') RETURNING id::text`,
      [B, reg.id, world.contexts.checkInB],
    );
    await new Promise((resolve) => setTimeout(resolve, 50)); // past the sync high-water mark
    const pages: { scans: { id: number; created_at: string }[]; has_more: boolean; synced_at: string }[] = [];
    let since = cursor;
    for (let page = 0; page < 10; page++) {
      const res = await get(
        app,
        `${P}/events/${B}/scans?since=${encodeURIComponent(since)}`,
        world.users.admin.mobile,
      );
      expect(res.statusCode).toBe(200);
      const body = res.json();
      pages.push(body);
      expect(body.synced_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      since = body.synced_at;
      if (!body.has_more) break;
    }
    // The tie is never split: one page holds all 1,203 scans of that instant, its synced_at is
    // that instant; the next page holds the later row and ends at the high-water mark.
    expect(pages.map((p) => [p.scans.length, p.has_more])).toEqual([
      [1203, true],
      [1, false],
    ]);
    expect(pages[0]!.synced_at).toBe(pages[0]!.scans[1202]!.created_at);
    const seen = pages.flatMap((p) => p.scans.map((s) => s.id));
    const expected = [...inserted, ...later].map((r) => Number(r.id));
    expect([...seen].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    const rest = await get(
      app,
      `${P}/events/${B}/scans?since=${encodeURIComponent(since)}`,
      world.users.admin.mobile,
    );
    expect(rest.json().scans).toEqual([]);
    // A compound cursor an earlier version returned (`<created_at>_<last id>`) still resumes after
    // that id, so a device that stored one loses nothing; the answer's cursor is plain.
    const legacy = `${pages[0]!.synced_at}_${seen[999]}`;
    const resumed = (
      await get(app, `${P}/events/${B}/scans?since=${encodeURIComponent(legacy)}`, world.users.admin.mobile)
    ).json();
    expect(resumed.scans.map((s: { id: number }) => s.id)).toEqual(seen.slice(1000));
    expect(resumed.synced_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    for (const bad of ['2026-11-24T11:00:00.000000Z_', '2026-11-24T11:00:00.000000Z_x1', '_12', '12_34']) {
      const res = await get(
        app,
        `${P}/events/${B}/scans?since=${encodeURIComponent(bad)}`,
        world.users.admin.mobile,
      );
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: 'since must be an ISO 8601 date-time, e.g. a previous synced_at' });
    }
  }, 60_000);

  it('undo by context or all, by registration or person id; audited; unknown → 404', async () => {
    const reg = await newReg(A, 'undo');
    for (const c of [world.contexts.checkInA, world.contexts.checkInA, world.contexts.lunchA]) {
      await post(`/events/${A}/scans`, { participant_id: reg.id, scan_context_id: c });
    }
    const del = (url: string, secret = world.users.ops.mobile) =>
      app.inject({
        method: 'DELETE',
        url: `${P}${url}`,
        headers: { ...bearer(secret), 'content-type': 'application/json' },
      });
    const one = await del(`/events/${A}/scans/${reg.personId}?scan_context_id=${world.contexts.checkInA}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      success: true,
      deleted_scans: 2,
      participant_event_id: reg.id,
      scan_context_id: world.contexts.checkInA,
    });
    const rest = await del(`/events/${A}/scans/${reg.id}`);
    expect(rest.json()).toEqual({
      success: true,
      deleted_scans: 1,
      participant_event_id: reg.id,
      scan_context_id: null,
    });
    const audits = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'scans.undo' AND target_id = $1`,
      [String(reg.id)],
    );
    expect(audits[0]!.n).toBe(2);
    const again = await post(`/events/${A}/scans`, {
      participant_id: reg.id,
      scan_context_id: world.contexts.checkInA,
    });
    expect(again.json().outcome).toBe('scanned');
    expect((await del(`/events/${A}/scans/${world.regs.regC.id}`)).statusCode).toBe(404);
    expect((await del(`/events/${A}/scans/abc`)).statusCode).toBe(404);
    expect(
      (await del(`/events/${A}/scans/${reg.id}?scan_context_id=${world.contexts.checkInB}`)).statusCode,
    ).toBe(422);
  });
});
