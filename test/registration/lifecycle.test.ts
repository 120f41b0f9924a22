/**
 * The registration state machine (src/modules/registration/lifecycle/lifecycle.ts), transcribed from
 * docs/decisions.md "Registration lifecycle": every (from, to, actor) triple, the audit entry and
 * `updated_at` bump of a real transition, refused moves leaving the database unchanged, and the
 * `complete` check (adults, minors on the event's start date, the freedom-waiver module).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consents,
  emergencyContacts,
  guardians,
  type RegistrationStatus,
} from '../../src/db/schema/index.js';
import { ApiError } from '../../src/lib/errors.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { ageOn, isMinor } from '../../src/modules/registration/lifecycle/completion.js';
import {
  ACTOR_ROLES,
  type ActorRole,
  recheckCompletion,
  transition,
} from '../../src/modules/registration/lifecycle/lifecycle.js';
import { assertTransition } from '../../src/modules/registration/lifecycle/lifecycle.rules.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration } from '../support/world.js';

const STATUSES: RegistrationStatus[] = [
  'invited',
  'in_progress',
  'awaiting_guardian',
  'complete',
  'withdrawn',
  'rejected',
];

/**
 * Allowed moves, from the contract: invited → in_progress (participant starts the form);
 * in_progress/awaiting_guardian/complete move among themselves only by the completion check
 * (submit, guardian completion, consent signing); withdrawn by participant or admin from any live
 * status; admin may reinstate withdrawn/rejected to in_progress; rejected by admin only.
 * p = participant, g = guardian, c = consent, s = staff, e = a staff edit of the record (docs/decisions.md "Staff status changes and edits"
 * "Staff edits"; it re-runs the completion check like the participant's own edit).
 */
const ALLOWED: Record<string, string> = {
  'invited>in_progress': 'p',
  'invited>withdrawn': 'ps',
  'invited>rejected': 's',
  'in_progress>awaiting_guardian': 'pgce',
  'in_progress>complete': 'pgce',
  'in_progress>withdrawn': 'ps',
  'in_progress>rejected': 's',
  'awaiting_guardian>in_progress': 'pgce',
  'awaiting_guardian>complete': 'pgce',
  'awaiting_guardian>withdrawn': 'ps',
  'awaiting_guardian>rejected': 's',
  'complete>in_progress': 'pgce',
  'complete>awaiting_guardian': 'pgce',
  'complete>withdrawn': 'ps',
  'complete>rejected': 's',
  'withdrawn>in_progress': 's',
  'withdrawn>rejected': 's',
  'rejected>in_progress': 's',
};
const LETTER: Record<ActorRole, string> = {
  participant: 'p',
  guardian: 'g',
  consent: 'c',
  staff: 's',
  staff_edit: 'e',
};

const triples = STATUSES.flatMap((from) =>
  STATUSES.flatMap((to) => ACTOR_ROLES.map((role) => [from, to, role] as const)),
);

describe('transition rules (pure)', () => {
  it.each(triples)('%s → %s by %s', (from, to, role) => {
    const allowed = (ALLOWED[`${from}>${to}`] ?? '').includes(LETTER[role]);
    if (allowed) {
      expect(() => assertTransition(from, to, role)).not.toThrow();
      return;
    }
    let error: unknown;
    try {
      assertTransition(from, to, role);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(422);
    const message = (error as ApiError).message;
    if (from === to) expect(message).toBe(`Registration is already ${to}`);
    else if (!ALLOWED[`${from}>${to}`])
      expect(message).toBe(`A registration cannot move from ${from} to ${to}`);
    else expect(message).toMatch(new RegExp(`^Only .+ can move a registration from ${from} to ${to}$`));
  });

  it('age is whole years on the event start date', () => {
    expect(ageOn('2008-07-10', '2026-07-10')).toBe(18);
    expect(ageOn('2008-07-11', '2026-07-10')).toBe(17);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(isMinor({ dateOfBirth: '2008-07-10', eventStartDate: '2026-07-10' })).toBe(false);
    expect(isMinor({ dateOfBirth: '2008-07-11', eventStartDate: '2026-07-10' })).toBe(true);
    expect(isMinor({ dateOfBirth: null, eventStartDate: '2026-07-10' })).toBe(false);
  });
});

let t: TestApp;
let eventId: number;
let freedomEventId: number;
let n = 0;

beforeAll(async () => {
  t = await startTestApp();
  await t.deps.db.transaction(async (tx) => {
    const s = await createSeries(tx, { name: 'Lifecycle Series', slug: 'lifecycle-series' });
    const e = await createEventRecord(tx, {
      seriesId: s.id,
      name: 'Lifecycle Event',
      slug: 'lifecycle-event',
      supportEmail: 'help@muster.example',
      timezone: 'America/New_York',
      // 2026-07-10 02:00 UTC is still 2026-07-09 in New York: the start date is the 9th.
      startsAt: '2026-07-10T02:00:00Z',
      setupComplete: true,
      modules: { freedom_waivers_enabled: false },
    });
    const f = await createEventRecord(tx, {
      seriesId: s.id,
      name: 'Freedom Event',
      slug: 'freedom-event',
      supportEmail: 'help@muster.example',
      startsAt: '2026-07-10T09:00:00Z',
      setupComplete: true,
      modules: { freedom_waivers_enabled: true },
    });
    eventId = e.id;
    freedomEventId = f.id;
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function newRegistration(
  status: RegistrationStatus,
  opts: { dob?: string | null; event?: number; submitted?: boolean; contact?: boolean } = {},
): Promise<number> {
  n += 1;
  return t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: opts.event ?? eventId,
      email: `person${n}@example.com`,
      firstName: 'Pat',
      lastName: `Person${n}`,
      preferredName: null,
      dateOfBirth: opts.dob === undefined ? '1990-01-01' : opts.dob,
      status,
    });
    if (opts.submitted ?? true)
      await tx.execute(sql`UPDATE registrations SET submitted_at = now() WHERE id = ${reg.id}`);
    if (opts.contact ?? true)
      await tx
        .insert(emergencyContacts)
        .values({ registrationId: reg.id, name: 'Kim', phone: '+15550100', relationship: 'friend' });
    return reg.id;
  });
}

async function statusOf(id: number) {
  const res = await t.deps.db.execute<{ status: string; updated_at: string; withdrawn_at: string | null }>(
    sql`SELECT status, updated_at::text, withdrawn_at::text FROM registrations WHERE id = ${id}`,
  );
  return res.rows[0]!;
}

async function auditFor(id: number) {
  const res = await t.deps.db.execute<{ action: string; metadata: Record<string, unknown> }>(
    sql`SELECT action, metadata FROM audit_log WHERE target_type = 'registration' AND target_id = ${String(id)} ORDER BY id`,
  );
  return res.rows;
}

describe('transition (database)', () => {
  it('moves, audits and bumps updated_at', async () => {
    const id = await newRegistration('in_progress');
    const before = await statusOf(id);
    await new Promise((r) => setTimeout(r, 5));
    const result = await t.deps.db.transaction((tx) =>
      transition(tx, {
        registrationId: id,
        to: 'withdrawn',
        actor: { role: 'staff', actorUserId: null },
        reason: 'duplicate',
      }),
    );
    expect(result).toEqual({ from: 'in_progress', to: 'withdrawn' });
    const after = await statusOf(id);
    expect(after.status).toBe('withdrawn');
    expect(after.withdrawn_at).not.toBeNull();
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(await auditFor(id)).toEqual([
      {
        action: 'registrations.transition',
        metadata: { from: 'in_progress', to: 'withdrawn', by: 'staff', reason: 'duplicate' },
      },
    ]);
  });

  it('refuses an illegal move with 422 and changes nothing', async () => {
    const id = await newRegistration('rejected');
    const before = await snapshotDb(t.deps);
    await expect(
      t.deps.db.transaction((tx) =>
        transition(tx, { registrationId: id, to: 'withdrawn', actor: { role: 'participant' } }),
      ),
    ).rejects.toMatchObject({
      statusCode: 422,
      message: 'A registration cannot move from rejected to withdrawn',
    });
    await expect(
      t.deps.db.transaction((tx) =>
        transition(tx, { registrationId: id, to: 'in_progress', actor: { role: 'participant' } }),
      ),
    ).rejects.toMatchObject({
      statusCode: 422,
      message: 'Only staff can move a registration from rejected to in_progress',
    });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('404 for an unknown registration', async () => {
    await expect(
      t.deps.db.transaction((tx) =>
        transition(tx, { registrationId: 99_999_999, to: 'withdrawn', actor: { role: 'staff' } }),
      ),
    ).rejects.toMatchObject({ statusCode: 404, message: 'Registration not found' });
  });
});

const recheck = (id: number, role: ActorRole = 'consent') =>
  t.deps.db.transaction((tx) => recheckCompletion(tx, id, { role }));

async function sign(id: number, type: string, status = 'signed') {
  await t.deps.db.insert(consents).values({ registrationId: id, consentType: type, status });
}

describe('recheckCompletion', () => {
  it('adult: in_progress until the waiver is signed, then complete', async () => {
    const id = await newRegistration('in_progress');
    expect(await recheck(id, 'participant')).toBe('in_progress');
    expect(await auditFor(id)).toEqual([]);
    await sign(id, 'waiver');
    expect(await recheck(id)).toBe('complete');
    expect((await statusOf(id)).status).toBe('complete');
    expect((await auditFor(id)).map((a) => a.metadata)).toEqual([
      { from: 'in_progress', to: 'complete', by: 'consent' },
    ]);
  });

  it('does not move a registration that was never submitted, or one withdrawn/rejected/invited', async () => {
    const unsubmitted = await newRegistration('in_progress', { submitted: false });
    await sign(unsubmitted, 'waiver');
    expect(await recheck(unsubmitted)).toBe('in_progress');
    for (const status of ['withdrawn', 'rejected', 'invited'] as const) {
      const id = await newRegistration(status);
      await sign(id, 'waiver');
      expect(await recheck(id)).toBe(status);
    }
  });

  it('stays in_progress while a required section is missing', async () => {
    const noContact = await newRegistration('in_progress', { contact: false });
    await sign(noContact, 'waiver');
    expect(await recheck(noContact)).toBe('in_progress');
    const noDob = await newRegistration('in_progress', { dob: null });
    await sign(noDob, 'waiver');
    expect(await recheck(noDob)).toBe('in_progress');
  });

  it('minor (under 18 on the start date in the event zone): awaiting_guardian until every guardian completed', async () => {
    // 18th birthday on 2026-07-10, but the event starts on 2026-07-09 in New York: a minor.
    const id = await newRegistration('in_progress', { dob: '2008-07-10' });
    await sign(id, 'waiver');
    const [g1, g2] = await t.deps.db
      .insert(guardians)
      .values([
        { registrationId: id, email: 'g1@example.com', status: 'invited' },
        { registrationId: id, email: 'g2@example.com', status: 'invited' },
      ])
      .returning();
    expect(await recheck(id, 'participant')).toBe('awaiting_guardian');
    await t.deps.db.execute(sql`UPDATE guardians SET status = 'completed' WHERE id = ${g1!.id}`);
    expect(await recheck(id, 'guardian')).toBe('awaiting_guardian');
    await t.deps.db.execute(sql`UPDATE guardians SET status = 'completed' WHERE id = ${g2!.id}`);
    expect(await recheck(id, 'guardian')).toBe('complete');
    expect((await auditFor(id)).map((a) => a.metadata)).toEqual([
      { from: 'in_progress', to: 'awaiting_guardian', by: 'participant' },
      { from: 'awaiting_guardian', to: 'complete', by: 'guardian' },
    ]);
  });

  it('an imported awaiting_guardian registration (never submitted) completes with its guardians', async () => {
    const id = await newRegistration('awaiting_guardian', { dob: '2012-01-01', submitted: false });
    await sign(id, 'waiver');
    await t.deps.db
      .insert(guardians)
      .values({ registrationId: id, email: 'g@example.com', status: 'invited' });
    expect(await recheck(id, 'guardian')).toBe('awaiting_guardian');
    await t.deps.db.execute(sql`UPDATE guardians SET status = 'completed' WHERE registration_id = ${id}`);
    expect(await recheck(id, 'guardian')).toBe('complete');
  });

  it('an imported complete registration stays complete when a recheck finds a consent record missing', async () => {
    const id = await newRegistration('complete', { event: freedomEventId });
    await sign(id, 'waiver');
    expect(await recheck(id)).toBe('complete');
    await sign(id, 'freedom_waiver', 'expired');
    expect(await recheck(id)).toBe('in_progress');
  });

  it('an 18-year-old on the start date is an adult', async () => {
    const id = await newRegistration('in_progress', { dob: '2008-07-09' });
    await sign(id, 'waiver');
    expect(await recheck(id)).toBe('complete');
  });

  it('freedom waiver module on: both waivers must be signed', async () => {
    const id = await newRegistration('in_progress', { event: freedomEventId });
    await sign(id, 'waiver');
    expect(await recheck(id)).toBe('in_progress');
    await sign(id, 'freedom_waiver');
    expect(await recheck(id)).toBe('complete');
  });

  it('a complete registration whose waiver is declined moves back to in_progress', async () => {
    const id = await newRegistration('in_progress');
    await sign(id, 'waiver');
    expect(await recheck(id)).toBe('complete');
    await t.deps.db.execute(sql`UPDATE consents SET status = 'declined' WHERE registration_id = ${id}`);
    expect(await recheck(id)).toBe('in_progress');
  });
});
