/**
 * Door verdicts, overrides, exits and presence (docs/checkin.md "Door verdicts", "Overrides",
 * "Presence") against the real database: every attention code, the default and a custom refuse
 * list, a refused scan storing nothing, `force` with its audit, bulk replays, exits, `inside` and
 * `collected_by`, and what each caller is shown (pickup adults, medical details).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let A: number;
/** A presence-tracking context of event A (created in beforeAll). */
let gate: number;

const P = '/api/v1';

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
  const res = await send('POST', `/events/${A}/scan_contexts`, {
    name: 'Campus gate',
    tracks_presence: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  gate = res.json().scan_context.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function send(method: 'POST' | 'PATCH', url: string, body: unknown, secret = world.users.eventAdmin.mobile) {
  return app.inject({ method, url: `${P}${url}`, payload: body as object, headers: bearer(secret) });
}
const scan = (body: Record<string, unknown>, secret = world.users.ops.mobile) =>
  send('POST', `/events/${A}/scans`, body, secret);

async function query<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.deps.database.pool.query<T>(text, params)).rows;
}

interface PersonOpts {
  status?: 'invited' | 'in_progress' | 'awaiting_guardian' | 'complete' | 'withdrawn' | 'rejected';
  dob?: string | null;
  waiver?: boolean;
  anaphylaxis?: string;
  refrigeration?: boolean;
  crossContamination?: boolean;
  highSupport?: boolean;
  canLeave?: boolean;
  pickupAdults?: string;
  banned?: boolean;
}

let seq = 0;
/** A registration in event A with exactly the facts asked for (default: a complete adult with a signed waiver). */
async function person(o: PersonOpts = {}) {
  const tag = `door${++seq}`;
  const reg = await t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId: A,
      email: `${tag}@door.test`,
      firstName: tag,
      lastName: 'Door',
      preferredName: null,
      dateOfBirth: o.dob === undefined ? '1990-01-01' : o.dob,
      status: o.status ?? 'complete',
    }),
  );
  if (o.waiver ?? true) {
    await query(
      `INSERT INTO consents (registration_id, consent_type, status) VALUES ($1, 'waiver', 'signed')`,
      [reg.id],
    );
  }
  await query(
    `INSERT INTO registration_medical (registration_id, has_anaphylaxis_risk, requires_refrigeration, life_threatening_allergies)
     VALUES ($1, $2, $3, $4)`,
    [reg.id, o.anaphylaxis !== undefined, o.refrigeration ?? false, o.anaphylaxis ?? null],
  );
  await query(
    `INSERT INTO registration_dietary (registration_id, cross_contamination_risk) VALUES ($1, $2)`,
    [reg.id, o.crossContamination ?? false],
  );
  await query(
    `INSERT INTO registration_safeguarding (registration_id, high_support_flag, can_leave_unaccompanied, authorized_pickup_adults)
     VALUES ($1, $2, $3, $4)`,
    [reg.id, o.highSupport ?? false, o.canLeave ?? false, o.pickupAdults ?? null],
  );
  if (o.banned) {
    const [ban] = await query<{ id: string }>(`INSERT INTO bans (reason) VALUES ('test') RETURNING id`);
    await query(`INSERT INTO ban_emails (ban_id, email) VALUES ($1, $2)`, [ban!.id, reg.email]);
  }
  return reg;
}

const codesOf = (body: { attention: { code: string }[] }) => body.attention.map((a) => a.code);
const lunch = () => world.contexts.lunchA;
const checkIn = () => world.contexts.checkInA;

describe('attention codes (a context that refuses nothing: each code warns)', () => {
  const cases: [string, PersonOpts, string[]][] = [
    ['a complete adult with a signed waiver', {}, []],
    ['withdrawn', { status: 'withdrawn' }, ['withdrawn']],
    ['rejected', { status: 'rejected' }, ['rejected']],
    ['invited', { status: 'invited', waiver: false }, ['not_registered']],
    ['in progress', { status: 'in_progress', waiver: false }, ['not_registered']],
    [
      'a minor awaiting a guardian',
      { status: 'awaiting_guardian', dob: '2012-03-04', waiver: false },
      ['awaiting_guardian', 'consents_missing', 'minor', 'not_unaccompanied'],
    ],
    ['complete without a signed waiver', { waiver: false }, ['consents_missing']],
    ['banned', { banned: true }, ['banned']],
    ['17 on the event’s first day', { dob: '2008-07-11', canLeave: true }, ['minor']],
    ['18 on the event’s first day', { dob: '2008-07-10' }, []],
    ['a minor who may not leave alone', { dob: '2012-03-04' }, ['minor', 'not_unaccompanied']],
    ['anaphylaxis risk', { anaphylaxis: 'peanuts' }, ['medical_alert']],
    ['refrigerated medication', { refrigeration: true }, ['medical_alert']],
    ['cross-contamination risk', { crossContamination: true }, ['medical_alert']],
    ['high support', { highSupport: true }, ['high_support']],
  ];
  for (const [name, opts, codes] of cases) {
    it(`${name} → ${codes.length ? codes.join(', ') : 'admitted'}`, async () => {
      const reg = await person(opts);
      const res = await scan({ participant_id: reg.id, scan_context_id: lunch() });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(codesOf(body)).toEqual(codes);
      expect(body.verdict).toBe(codes.length ? 'warning' : 'admitted');
      expect(body.forced).toBe(false);
      for (const a of body.attention) expect(a.message).toMatch(/\w/);
      expect(body.scan).toMatchObject({
        type: 'entry',
        verdict: body.verdict,
        attention_codes: codes,
        forced: false,
      });
    });
  }

  it('already_scanned on a second entry; a revoked ban no longer counts', async () => {
    const reg = await person({ banned: true });
    await query(
      `UPDATE bans SET revoked_at = now() WHERE id IN (SELECT ban_id FROM ban_emails WHERE email = $1)`,
      [reg.email],
    );
    const first = await scan({ participant_id: reg.id, scan_context_id: lunch() });
    expect(first.json()).toMatchObject({ verdict: 'admitted', attention: [] });
    const again = await scan({ participant_id: reg.id, scan_context_id: lunch() });
    expect(again.json()).toMatchObject({
      verdict: 'warning',
      attention: [{ code: 'already_scanned', message: 'Already checked in here' }],
      outcome: 'already_scanned',
    });
  });
});

describe('refuse lists', () => {
  it('check-in contexts refuse withdrawn, rejected and banned by default: 409, nothing stored', async () => {
    for (const opts of [{ status: 'withdrawn' }, { status: 'rejected' }, { banned: true }] as PersonOpts[]) {
      const reg = await person(opts);
      const before = await snapshotDb(t.deps);
      const res = await scan({
        participant_id: reg.id,
        scan_context_id: checkIn(),
        client_scan_id: `r${reg.id}`,
      });
      expect(res.statusCode, res.body).toBe(409);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['attention', 'error', 'participant', 'verdict']);
      expect(body.verdict).toBe('refused');
      expect(body.error).toMatch(/^Not admitted: /);
      expect(body.participant.participant_event_id).toBe(reg.id);
      expect(await snapshotDb(t.deps)).toEqual(before);
    }
  });

  it('other codes warn in a check-in context; the participant is admitted', async () => {
    const reg = await person({ status: 'awaiting_guardian', dob: '2012-03-04', waiver: false });
    const res = await scan({ participant_id: reg.id, scan_context_id: checkIn() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().verdict).toBe('warning');
    expect(res.json().attention[0]).toEqual({
      code: 'awaiting_guardian',
      message: 'Waiting for a parent or guardian to complete the form',
    });
  });

  it('event admins set a custom list (ops 403, bad codes 422, null restores the default)', async () => {
    const url = `/events/${A}/scan_contexts/${lunch()}`;
    const denied = await send('PATCH', url, { refuse: ['minor'] }, world.users.ops.mobile);
    expect(denied.statusCode).toBe(403);
    expect((await send('PATCH', url, { refuse: ['not_a_code'] })).statusCode).toBe(422);
    const set = await send('PATCH', url, { refuse: ['minor', 'awaiting_guardian', 'minor'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().scan_context.refuse).toEqual(['minor', 'awaiting_guardian']);
    const audit = await query<{ metadata: { fields: string[] } }>(
      `SELECT metadata FROM audit_log WHERE action = 'scan_contexts.update' AND target_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(lunch())],
    );
    expect(audit[0]!.metadata.fields).toEqual(['refuse']);

    const minor = await person({ dob: '2012-03-04' });
    const refused = await scan({ participant_id: minor.id, scan_context_id: lunch() });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('Not admitted: Under 18');
    const withdrawn = await person({ status: 'withdrawn' });
    expect((await scan({ participant_id: withdrawn.id, scan_context_id: lunch() })).json().verdict).toBe(
      'warning',
    );

    const reset = await send('PATCH', url, { refuse: null });
    expect(reset.json().scan_context.refuse).toEqual([]);
    expect((await scan({ participant_id: minor.id, scan_context_id: lunch() })).statusCode).toBe(200);
  });
});

describe('let in anyway (force)', () => {
  it('needs a reason (422) and a role that may override (403), storing nothing', async () => {
    const reg = await person({ status: 'withdrawn' });
    const before = await snapshotDb(t.deps);
    const noReason = await scan(
      { participant_id: reg.id, scan_context_id: checkIn(), force: true },
      world.users.eventAdmin.mobile,
    );
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().error).toBe('reason is required to let someone in anyway');
    for (const who of [world.users.ops, world.users.limited]) {
      const res = await scan(
        { participant_id: reg.id, scan_context_id: checkIn(), force: true, reason: 'ok' },
        who.mobile,
      );
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('stores the scan forced and audits the reason (event admin, safeguarding lead)', async () => {
    for (const who of [world.users.eventAdmin, world.users.safeguarding]) {
      const reg = await person({ status: 'withdrawn' });
      const res = await scan(
        { participant_id: reg.id, scan_context_id: checkIn(), force: true, reason: ' Reinstated by phone ' },
        who.mobile,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        verdict: 'refused',
        forced: true,
        scan: { forced: true, verdict: 'refused' },
      });
      expect(body.participant.checked_in_at).not.toBeNull();
      const rows = await query<{ forced: boolean; verdict: string; attention: string[] }>(
        'SELECT forced, verdict, attention FROM scans WHERE registration_id = $1',
        [reg.id],
      );
      expect(rows).toEqual([{ forced: true, verdict: 'refused', attention: ['withdrawn'] }]);
      const audit = await query<{ actor_user_id: number; metadata: Record<string, unknown> }>(
        `SELECT actor_user_id, metadata FROM audit_log WHERE action = 'scans.force' AND target_id = $1`,
        [String(reg.id)],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor_user_id).toBe(who.id);
      expect(audit[0]!.metadata).toMatchObject({ reason: 'Reinstated by phone', attention: ['withdrawn'] });
    }
  });

  it('force on a scan that is not refused stores it unforced, with no audit', async () => {
    const reg = await person();
    const res = await scan(
      { participant_id: reg.id, scan_context_id: checkIn(), force: true, reason: 'x' },
      world.users.eventAdmin.mobile,
    );
    expect(res.json()).toMatchObject({ verdict: 'admitted', forced: false });
    expect(
      await query(`SELECT 1 FROM audit_log WHERE action = 'scans.force' AND target_id = $1`, [
        String(reg.id),
      ]),
    ).toEqual([]);
  });
});

describe('offline replays (bulk)', () => {
  it('always store and report each verdict; a forced replay keeps its reason', async () => {
    const withdrawn = await person({ status: 'withdrawn' });
    const forced = await person({ status: 'rejected' });
    const fine = await person();
    const res = await send(
      'POST',
      `/events/${A}/scans/bulk`,
      {
        scans: [
          { client_scan_id: 'off-1', participant_id: withdrawn.id, scan_context_id: checkIn() },
          {
            client_scan_id: 'off-2',
            participant_id: forced.id,
            scan_context_id: checkIn(),
            force: true,
            reason: 'Lead said yes',
          },
          { client_scan_id: 'off-3', participant_id: fine.id, scan_context_id: checkIn() },
        ],
      },
      world.users.eventAdmin.mobile,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [r1, r2, r3] = res.json().results;
    expect(r1).toMatchObject({
      status: 'ok',
      verdict: 'refused',
      forced: false,
      attention: [{ code: 'withdrawn' }],
    });
    expect(r2).toMatchObject({
      status: 'ok',
      verdict: 'refused',
      forced: true,
      attention: [{ code: 'rejected' }],
    });
    expect(r3).toMatchObject({ status: 'ok', verdict: 'admitted', forced: false, attention: [] });
    const stored = await query<{ registration_id: number; verdict: string; forced: boolean }>(
      'SELECT registration_id, verdict, forced FROM scans WHERE registration_id = ANY($1) ORDER BY registration_id',
      [[withdrawn.id, forced.id, fine.id]],
    );
    expect(stored).toEqual([
      { registration_id: withdrawn.id, verdict: 'refused', forced: false },
      { registration_id: forced.id, verdict: 'refused', forced: true },
      { registration_id: fine.id, verdict: 'admitted', forced: false },
    ]);
    const audit = await query<{ metadata: { reason: string } }>(
      `SELECT metadata FROM audit_log WHERE action = 'scans.force' AND target_id = $1`,
      [String(forced.id)],
    );
    expect(audit.map((a) => a.metadata.reason)).toEqual(['Lead said yes']);
    // A replay of the same client_scan_id answers what was recorded, and writes nothing.
    const again = await send('POST', `/events/${A}/scans/bulk`, {
      scans: [{ client_scan_id: 'off-1', participant_id: withdrawn.id, scan_context_id: checkIn() }],
    });
    expect(again.json().results[0]).toMatchObject({ deduplicated: true, verdict: 'refused' });
  });
});

describe('exits and presence', () => {
  const presence = (body: { participant: { scans_by_context: Record<string, unknown>[] } }, id: number) =>
    body.participant.scans_by_context.find((c) => c.scan_context_id === id)!;

  it('entries and exits say who is inside; exits only where presence is tracked', async () => {
    const reg = await person();
    const noPresence = await scan({ participant_id: reg.id, scan_context_id: lunch(), type: 'exit' });
    expect(noPresence.statusCode).toBe(422);
    const at = (time: string) => `2026-07-10T${time}:00Z`;
    const inside = await scan({ participant_id: reg.id, scan_context_id: gate, scanned_at: at('09:00') });
    expect(inside.json()).toMatchObject({ verdict: 'admitted', scan: { type: 'entry' } });
    expect(presence(inside.json(), gate)).toMatchObject({ inside: true, last_exit_at: null });
    expect(presence(inside.json(), lunch())).toMatchObject({ inside: null });
    const twice = await scan({ participant_id: reg.id, scan_context_id: gate, scanned_at: at('09:05') });
    expect(twice.json().attention).toEqual([{ code: 'already_scanned', message: 'Already inside' }]);
    const out = await scan({
      participant_id: reg.id,
      scan_context_id: gate,
      type: 'exit',
      scanned_at: '2026-07-10T18:00:00Z',
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ verdict: 'admitted', scan: { type: 'exit' } });
    expect(presence(out.json(), gate)).toMatchObject({
      inside: false,
      last_exit_at: '2026-07-10T18:00:00.000000Z',
    });
    const back = await scan({
      participant_id: reg.id,
      scan_context_id: gate,
      scanned_at: '2026-07-10T19:00:00Z',
    });
    expect(back.json().attention).toEqual([]);
    expect(presence(back.json(), gate)).toMatchObject({ inside: true });
  });

  it('an exit is never refused', async () => {
    const reg = await person({ status: 'withdrawn' });
    await send('PATCH', `/events/${A}/scan_contexts/${gate}`, { refuse: ['withdrawn'] });
    const out = await scan({ participant_id: reg.id, scan_context_id: gate, type: 'exit' });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json().verdict).toBe('warning');
    await send('PATCH', `/events/${A}/scan_contexts/${gate}`, { refuse: null });
  });

  it('a minor who may not leave alone needs collected_by; pickup adults only for PII callers', async () => {
    const minor = await person({ dob: '2012-03-04', pickupAdults: 'Ana Grey (mother), Bo Grey (uncle)' });
    await scan({ participant_id: minor.id, scan_context_id: gate });
    const before = await snapshotDb(t.deps);
    const ops = await scan({ participant_id: minor.id, scan_context_id: gate, type: 'exit' });
    expect(ops.statusCode).toBe(422);
    expect(ops.json()).toMatchObject({
      error: 'collected_by is required: this participant is a minor who may not leave unaccompanied',
      authorized_pickup_adults: 'Ana Grey (mother), Bo Grey (uncle)',
    });
    expect(codesOf(ops.json())).toEqual(['minor', 'not_unaccompanied']);
    const limited = await scan(
      { participant_id: minor.id, scan_context_id: gate, type: 'exit' },
      world.users.limited.mobile,
    );
    expect(limited.statusCode).toBe(422);
    expect(limited.json()).not.toHaveProperty('authorized_pickup_adults');
    expect(limited.body).not.toContain('Ana Grey');
    expect(await snapshotDb(t.deps)).toEqual(before);
    const entry = await scan({ participant_id: minor.id, scan_context_id: gate, collected_by: 'x' });
    expect(entry.statusCode).toBe(422);

    const done = await scan(
      { participant_id: minor.id, scan_context_id: gate, type: 'exit', collected_by: ' Ana Grey ' },
      world.users.limited.mobile,
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).not.toHaveProperty('authorized_pickup_adults');
    expect(done.json()).not.toHaveProperty('collected_by');
    expect(done.body).not.toContain('Ana Grey');
    const row = await query<{ collected_by: string; type: string }>(
      'SELECT collected_by, type FROM scans WHERE registration_id = $1 ORDER BY id DESC LIMIT 1',
      [minor.id],
    );
    expect(row).toEqual([{ collected_by: 'Ana Grey', type: 'exit' }]);
    const audit = await query<{ actor_user_id: number; metadata: Record<string, unknown> }>(
      `SELECT actor_user_id, metadata FROM audit_log WHERE action = 'scans.collected' AND target_id = $1`,
      [String(minor.id)],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_user_id: world.users.limited.id,
      metadata: { collected_by: 'Ana Grey' },
    });

    await scan({ participant_id: minor.id, scan_context_id: gate });
    const byOps = await scan({
      participant_id: minor.id,
      scan_context_id: gate,
      type: 'exit',
      collected_by: 'Bo Grey',
    });
    expect(byOps.json()).toMatchObject({
      authorized_pickup_adults: 'Ana Grey (mother), Bo Grey (uncle)',
      collected_by: 'Bo Grey',
    });
  });

  it('a minor allowed to leave alone exits without collected_by', async () => {
    const minor = await person({ dob: '2012-03-04', canLeave: true });
    await scan({ participant_id: minor.id, scan_context_id: gate });
    const out = await scan({ participant_id: minor.id, scan_context_id: gate, type: 'exit' });
    expect(out.statusCode, out.body).toBe(200);
    expect(codesOf(out.json())).toEqual(['minor']);
  });
});

describe('what each caller is shown', () => {
  it('medical details only for callers who may read sensitive data (also in a refusal)', async () => {
    const reg = await person({ anaphylaxis: 'peanuts', refrigeration: true });
    const ops = await scan({ participant_id: reg.id, scan_context_id: lunch() });
    expect(ops.json().attention).toEqual([
      { code: 'medical_alert', message: 'Medical alert: ask the safeguarding lead' },
    ]);
    expect(ops.body).not.toContain('peanuts');
    const lead = await scan(
      { participant_id: reg.id, scan_context_id: lunch() },
      world.users.safeguarding.mobile,
    );
    expect(lead.json().attention[0]).toEqual({
      code: 'medical_alert',
      message: 'Medical alert: anaphylaxis risk (peanuts), medication needs refrigeration',
    });
    const banned = await person({ banned: true, anaphylaxis: 'sesame' });
    const refused = await scan(
      { participant_id: banned.id, scan_context_id: checkIn() },
      world.users.limited.mobile,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.body).not.toContain('sesame');
    expect(codesOf(refused.json())).toEqual(['banned', 'medical_alert']);
  });

  it('GET /scans and the live feed carry type, verdict, attention codes and forced, never collected_by', async () => {
    const reg = await person({ status: 'awaiting_guardian', waiver: false });
    const res = await scan({ participant_id: reg.id, scan_context_id: lunch(), client_scan_id: 'feed-1' });
    const list = await get(
      app,
      `${P}/events/${A}/scans?scan_context_id=${lunch()}`,
      world.users.readOnly.mobile,
    );
    const row = list.json().scans.find((s: { id: number }) => s.id === res.json().scan.id);
    expect(row).toMatchObject({
      type: 'entry',
      verdict: 'warning',
      attention_codes: ['awaiting_guardian', 'consents_missing'],
      forced: false,
    });
    const feed = await query<{ payload: Record<string, unknown> }>(
      'SELECT payload FROM scan_feed WHERE scan_id = $1',
      [res.json().scan.id],
    );
    expect(feed[0]!.payload).toEqual(row);
    const exits = await query<{ payload: string }>(
      `SELECT f.payload::text AS payload FROM scan_feed f JOIN scans s ON s.id = f.scan_id WHERE s.collected_by IS NOT NULL`,
    );
    for (const e of exits) expect(e.payload).not.toContain('collected');
  });
});
