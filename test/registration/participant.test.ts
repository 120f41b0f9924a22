/**
 * Participant side (docs/decisions.md "Registration side"): POST /registrations from an invitation, tickets, submit (adult:
 * waiver requested, complete when signed; minor: guardian invitations emailed, awaiting_guardian),
 * typed consent signatures, withdraw, and staff withdraw/reinstate/reject — over HTTP, with the
 * invitation and guardian emails read from the SMTP server.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emergencyContacts, guardians } from '../../src/db/schema/index.js';
import { digestSecret } from '../../src/lib/secrets.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { createEventRecord } from '../../src/modules/events/records.service.js';
import { recordTypedSignature } from '../../src/modules/registration/lifecycle/consents.service.js';
import { BASE_URL, call, P, type RegHarness, startRegHarness, tokenIn } from './harness.js';

let h: RegHarness;

beforeAll(async () => {
  h = await startRegHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** A user with a mobile token, invited to event A by the event key; returns the invitation token. */
async function invitedUser(email: string, name: string, eventRef?: string) {
  const mobile = await h.t.deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { email, name });
    return (await issueMobileToken(tx, user.id)).secret;
  });
  const res = await call(
    h.app,
    'POST',
    `${P}/events/${eventRef ?? h.world.events.A.id}/participants`,
    h.world.secrets.eventKeyA ?? '',
    { email, first_name: name.split(' ')[0], last_name: name.split(' ')[1] },
  );
  if (eventRef === undefined) expect(res.statusCode).toBe(201);
  const mail = await h.smtp.waitFor((m) => m.to.includes(email) && m.subject.includes('invited'));
  return { mobile, token: tokenIn(mail) };
}

const TICKET_KEYS = [
  'attendee_name',
  'checked_in',
  'confirmed',
  'display_status',
  'event',
  'id',
  'onboarding_url',
  'participant_id',
  'qr_payload',
  'registration_uuid',
  'short_code',
  'status',
];

describe('adult registration end to end (HTTP)', () => {
  it('invite → start → submit → sign → complete → withdraw → staff reinstate', async () => {
    const { mobile, token } = await invitedUser('adam.adult@example.com', 'Adam Adult');
    const started = await call(h.app, 'POST', `${P}/registrations`, mobile, { invitation_token: token });
    expect(started.statusCode, started.body).toBe(201);
    const ticket = started.json().ticket;
    expect(Object.keys(ticket).sort()).toEqual(TICKET_KEYS);
    expect(ticket).toMatchObject({
      status: 'in_progress',
      display_status: 'Registration in progress',
      confirmed: false,
      checked_in: false,
      attendee_name: 'Adam Adult',
      qr_payload: ticket.registration_uuid,
      short_code: String(ticket.id),
      onboarding_url: `${BASE_URL}/register/${ticket.id}`,
      event: {
        id: h.world.events.A.id,
        name: 'Summit Alpha',
        slug: 'summit-alpha',
        timezone: 'Europe/London',
      },
    });
    expect(ticket.registration_uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const pe = ticket.id as number;

    const reuse = await call(h.app, 'POST', `${P}/registrations`, mobile, { invitation_token: token });
    expect(reuse.statusCode).toBe(422);
    expect(reuse.json()).toEqual({ error: 'This invitation has already been used' });

    const incomplete = await call(h.app, 'POST', `${P}/registrations/${pe}/submit`, mobile);
    expect(incomplete.statusCode).toBe(422);
    expect(incomplete.json()).toEqual({
      error: 'Registration is incomplete: personal.date_of_birth, emergency_contacts',
    });

    // Section editing (GET|PATCH /registrations/{pe}) is another slice: fill the two sections directly.
    await h.t.deps.db.execute(
      sql`UPDATE people SET date_of_birth = '1990-02-03' WHERE id = ${ticket.participant_id}`,
    );
    await h.t.deps.db
      .insert(emergencyContacts)
      .values({ registrationId: pe, name: 'Eve Adult', phone: '+15550101', relationship: 'sister' });

    const submitted = await call(h.app, 'POST', `${P}/registrations/${pe}/submit`, mobile);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const body = submitted.json();
    expect(body.ticket.status).toBe('in_progress');
    // Event A keeps the default freedom_waivers module on: both waivers are requested.
    expect(body.consents.map((c: { consent_type: string }) => c.consent_type)).toEqual([
      'waiver',
      'freedom_waiver',
    ]);
    for (const c of body.consents) {
      expect(c).toMatchObject({ status: 'sent', pending_on: 'participant', signed_at: null });
      expect(c.sent_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
    const [waiver, freedom] = body.consents as { id: number }[];

    // Submitting again while in_progress re-requests the unsigned consents (same rows).
    const again = await call(h.app, 'POST', `${P}/registrations/${pe}/submit`, mobile);
    expect(again.statusCode).toBe(200);
    expect(again.json().consents.map((c: { id: number }) => c.id)).toEqual(
      body.consents.map((c: { id: number }) => c.id),
    );

    const blank = await call(h.app, 'POST', `${P}/consents/${waiver!.id}/sign`, mobile, {
      signature_name: '   ',
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toEqual({ error: 'Signature name is required' });

    const signed = await call(h.app, 'POST', `${P}/consents/${waiver!.id}/sign`, mobile, {
      signature_name: ' Adam Adult ',
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().consent).toMatchObject({ id: waiver!.id, status: 'signed', pending_on: null });
    expect(signed.json().consent.participant_signed_at).toBe(signed.json().consent.signed_at);
    expect(signed.json().ticket.status).toBe('in_progress');
    const stored = await h.t.deps.db.execute<{ signature_name: string; signature_ip: string }>(
      sql`SELECT signature_name, signature_ip FROM consents WHERE id = ${waiver!.id}`,
    );
    expect(stored.rows[0]).toEqual({ signature_name: 'Adam Adult', signature_ip: '127.0.0.1' });

    const twice = await call(h.app, 'POST', `${P}/consents/${waiver!.id}/sign`, mobile, {
      signature_name: 'Adam Adult',
    });
    expect(twice.json()).toEqual({ error: 'This consent is already signed' });

    const done = await call(h.app, 'POST', `${P}/consents/${freedom!.id}/sign`, mobile, {
      signature_name: 'Adam Adult',
    });
    expect(done.json().ticket).toMatchObject({
      status: 'complete',
      display_status: 'Confirmed',
      confirmed: true,
    });

    const list = await call(h.app, 'GET', `${P}/tickets`, mobile);
    expect(list.statusCode).toBe(200);
    expect(list.json().tickets.map((t: { id: number; status: string }) => [t.id, t.status])).toEqual([
      [pe, 'complete'],
    ]);
    const one = await call(h.app, 'GET', `${P}/tickets/${pe}`, mobile);
    expect(one.json().ticket).toEqual(list.json().tickets[0]);

    // The staff list sees the completed registration with waiver_signed.
    const staff = await call(
      h.app,
      'GET',
      `${P}/events/${h.world.events.A.id}/participants/${pe}`,
      h.world.secrets.eventAdmin,
    );
    expect(staff.json().participant).toMatchObject({ status: 'complete', waiver_signed: true });

    const withdrawn = await call(h.app, 'POST', `${P}/registrations/${pe}/withdraw`, mobile, {
      reason: 'ill',
    });
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().ticket).toMatchObject({ status: 'withdrawn', display_status: 'Withdrawn' });
    const withdrawAgain = await call(h.app, 'POST', `${P}/registrations/${pe}/withdraw`, mobile);
    expect(withdrawAgain.statusCode).toBe(422);
    expect(withdrawAgain.json()).toEqual({ error: 'Registration is already withdrawn' });

    const reinstated = await call(
      h.app,
      'POST',
      `${P}/events/${h.world.events.A.id}/participants/${pe}/reinstate`,
      h.world.secrets.eventAdmin,
      { reason: 'recovered' },
    );
    expect(reinstated.statusCode, reinstated.body).toBe(200);
    expect(reinstated.json()).toMatchObject({
      success: true,
      participant_event_id: pe,
      status: 'in_progress',
    });

    const audit = await h.t.deps.db.execute<{ metadata: Record<string, unknown>; credential_kind: string }>(
      sql`SELECT metadata, credential_kind FROM audit_log WHERE action = 'registrations.transition'
            AND target_id = ${String(pe)} ORDER BY id`,
    );
    expect(audit.rows.map((r) => [r.metadata.from, r.metadata.to, r.metadata.by, r.credential_kind])).toEqual(
      [
        ['invited', 'in_progress', 'participant', 'mobile'],
        ['in_progress', 'complete', 'consent', 'mobile'],
        ['complete', 'withdrawn', 'participant', 'mobile'],
        ['withdrawn', 'in_progress', 'staff', 'mobile'],
      ],
    );
  }, 60_000);
});

describe('starting a registration', () => {
  it('refuses unknown, expired, revoked, banned, foreign-email and closed invitations', async () => {
    const { mobile, token } = await invitedUser('tess.tokens@example.com', 'Tess Tokens');
    const start = (t: string, secret = mobile) =>
      call(h.app, 'POST', `${P}/registrations`, secret, { invitation_token: t });
    expect((await start('nope')).json()).toEqual({ error: 'Invalid invitation token' });

    const other = await h.t.deps.db.transaction(async (tx) => {
      const user = await createUser(tx, { email: 'someone.else@example.com', name: 'Someone Else' });
      return (await issueMobileToken(tx, user.id)).secret;
    });
    const foreign = await start(token, other);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toEqual({ error: 'This invitation was sent to a different email address' });

    const digest = digestSecret(token);
    await h.t.deps.db.execute(
      sql`UPDATE events SET setup_complete = false WHERE id = ${h.world.events.A.id}`,
    );
    expect((await start(token)).json()).toEqual({ error: 'Registration for this event is not open' });
    await h.t.deps.db.execute(sql`UPDATE events SET setup_complete = true WHERE id = ${h.world.events.A.id}`);

    await h.t.deps.db.execute(sql`UPDATE invitations SET status = 'revoked' WHERE token_digest = ${digest}`);
    expect((await start(token)).json()).toEqual({ error: 'This invitation has been revoked' });
    await h.t.deps.db.execute(
      sql`UPDATE invitations SET status = 'pending', expires_at = now() - interval '1 second' WHERE token_digest = ${digest}`,
    );
    expect((await start(token)).json()).toEqual({ error: 'This invitation has expired' });
    await h.t.deps.db.execute(
      sql`UPDATE invitations SET expires_at = now() + interval '1 day' WHERE token_digest = ${digest}`,
    );
    await h.t.deps.db.execute(sql`
      WITH b AS (INSERT INTO bans (reason) VALUES ('t') RETURNING id)
      INSERT INTO ban_emails (ban_id, email) SELECT id, 'tess.tokens@example.com' FROM b`);
    const banned = await start(token);
    expect(banned.statusCode).toBe(422);
    expect(banned.json()).toEqual({ error: 'This email is banned from events' });
    const regs = await h.t.deps.db.execute(
      sql`SELECT 1 FROM registrations r JOIN people p ON p.id = r.person_id WHERE p.email = 'tess.tokens@example.com'`,
    );
    expect(regs.rows).toEqual([]);
  }, 60_000);

  it('an imported `invited` registration moves to in_progress and is linked to the user', async () => {
    await h.t.deps.db.execute(sql`
      WITH p AS (INSERT INTO people (email, legal_first_name, legal_last_name)
                 VALUES ('ivy.imported@example.com', 'Ivy', 'Imported') RETURNING id)
      INSERT INTO registrations (event_id, person_id, status) SELECT ${h.world.events.A.id}, id, 'invited' FROM p`);
    const { mobile, token } = await invitedUser('ivy.imported@example.com', 'Ivy Imported');
    const res = await call(h.app, 'POST', `${P}/registrations`, mobile, { invitation_token: token });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().ticket).toMatchObject({ status: 'in_progress', attendee_name: 'Ivy Imported' });
    const count = await h.t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM registrations r JOIN people p ON p.id = r.person_id
           WHERE p.email = 'ivy.imported@example.com'`,
    );
    expect(count.rows[0]!.n).toBe(1);
  }, 60_000);

  it('another user’s ticket, registration or consent is 403 (an unknown id 404: docs/decisions.md "Status codes and check order")', async () => {
    const mine = h.world.regs.adultA.id;
    const stranger = h.world.secrets.ops;
    const notYours = { error: 'This is not your registration' };
    const ticket = await call(h.app, 'GET', `${P}/tickets/${mine}`, stranger);
    expect([ticket.statusCode, ticket.json()]).toEqual([403, notYours]);
    for (const action of ['withdraw', 'submit']) {
      const res = await call(h.app, 'POST', `${P}/registrations/${mine}/${action}`, stranger);
      expect([res.statusCode, res.json()]).toEqual([403, notYours]);
    }
    const consent = await h.t.deps.db.execute<{ id: number }>(
      sql`SELECT id FROM consents WHERE registration_id = ${mine} LIMIT 1`,
    );
    const res = await call(h.app, 'POST', `${P}/consents/${consent.rows[0]!.id}/sign`, stranger, {
      signature_name: 'X',
    });
    expect([res.statusCode, res.json()]).toEqual([403, notYours]);
    expect((await call(h.app, 'GET', `${P}/tickets/abc`, stranger)).statusCode).toBe(404);
    expect((await call(h.app, 'GET', `${P}/tickets/99999999`, stranger)).json()).toEqual({
      error: 'Registration not found',
    });
    const missingConsent = await call(h.app, 'POST', `${P}/consents/99999999/sign`, stranger, {
      signature_name: 'X',
    });
    expect([missingConsent.statusCode, missingConsent.json()]).toEqual([404, { error: 'Consent not found' }]);
  });
});

describe('minor submit', () => {
  it('requests consents from the guardian, emails 7-day guardian links, awaits the guardian', async () => {
    const { mobile, token } = await invitedUser('mia.minor@example.com', 'Mia Minor');
    const started = await call(h.app, 'POST', `${P}/registrations`, mobile, { invitation_token: token });
    const pe = started.json().ticket.id as number;
    // Event A starts 2026-07-10 (London): born 2010 → 16.
    await h.t.deps.db.execute(
      sql`UPDATE people SET date_of_birth = '2010-03-04' WHERE id = ${started.json().ticket.participant_id}`,
    );
    await h.t.deps.db
      .insert(emergencyContacts)
      .values({ registrationId: pe, name: 'Nan Minor', phone: '+15550102', relationship: 'grandmother' });
    const noGuardian = await call(h.app, 'POST', `${P}/registrations/${pe}/submit`, mobile);
    expect(noGuardian.json()).toEqual({ error: 'Registration is incomplete: guardians' });
    await h.t.deps.db.insert(guardians).values([
      { registrationId: pe, name: 'Mo Minor', email: 'Mo.Minor@example.com', isPrimary: true },
      { registrationId: pe, name: 'Max Minor', email: 'max.minor.parent@example.com' },
    ]);

    const submitted = await call(h.app, 'POST', `${P}/registrations/${pe}/submit`, mobile);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().ticket).toMatchObject({
      status: 'awaiting_guardian',
      display_status: 'Awaiting guardian approval',
    });
    for (const c of submitted.json().consents)
      expect(c).toMatchObject({ status: 'sent', pending_on: 'guardian' });

    const mail = await h.smtp.waitFor((m) => m.to.includes('mo.minor@example.com'));
    expect(mail.from).toBe('alpha@muster.example');
    expect(mail.subject).toBe("Mia Minor's registration for Summit Alpha needs a parent or guardian");
    const guardianToken = tokenIn(mail);
    expect(mail.text).toContain(`${BASE_URL}/guardian/accept?token=${guardianToken}`);
    expect(mail.text).not.toContain('/api/');
    await h.smtp.waitFor((m) => m.to.includes('max.minor.parent@example.com'));
    const rows = await h.t.deps.db.execute<{
      status: string;
      invite_token_digest: string;
      invited_via_email: string;
      days: number;
    }>(sql`SELECT status, invite_token_digest, invited_via_email,
                  round(extract(epoch FROM invite_expires_at - invite_token_sent_at) / 86400)::int AS days
             FROM guardians WHERE registration_id = ${pe} ORDER BY is_primary DESC`);
    expect(rows.rows[0]).toEqual({
      status: 'invited',
      invite_token_digest: digestSecret(guardianToken),
      invited_via_email: 'mo.minor@example.com',
      days: 7,
    });
    expect(rows.rows[1]).toMatchObject({ status: 'invited', days: 7 });

    const byParticipant = await call(
      h.app,
      'POST',
      `${P}/consents/${submitted.json().consents[0].id}/sign`,
      mobile,
      { signature_name: 'Mia Minor' },
    );
    expect(byParticipant.statusCode).toBe(422);
    expect(byParticipant.json()).toEqual({ error: 'This consent must be signed by a parent or guardian' });

    // The guardian portal signs through recordTypedSignature (signer: guardian); once every
    // guardian completed and both consents are signed, the minor is complete.
    await h.t.deps.db.execute(sql`UPDATE guardians SET status = 'completed' WHERE registration_id = ${pe}`);
    const statuses: string[] = [];
    for (const c of submitted.json().consents as { id: number }[]) {
      statuses.push(
        await h.t.deps.db.transaction((tx) =>
          recordTypedSignature(h.t.deps, tx, {
            consentId: c.id,
            signatureName: 'Mo Minor',
            ip: '203.0.113.9',
            signer: 'guardian',
            actor: { role: 'consent', actorUserId: null, metadata: { guardian_id: 1 } },
          }),
        ),
      );
    }
    expect(statuses).toEqual(['awaiting_guardian', 'complete']);
    const signed = await h.t.deps.db.execute<{
      guardian_signed_at: string | null;
      participant_signed_at: string | null;
      signature_ip: string;
    }>(
      sql`SELECT guardian_signed_at::text, participant_signed_at::text, signature_ip FROM consents WHERE registration_id = ${pe}`,
    );
    for (const row of signed.rows) {
      expect(row.guardian_signed_at).not.toBeNull();
      expect(row.participant_signed_at).toBeNull();
      expect(row.signature_ip).toBe('203.0.113.9');
    }
    const ticket = await call(h.app, 'GET', `${P}/tickets/${pe}`, mobile);
    expect(ticket.json().ticket).toMatchObject({ status: 'complete', confirmed: true });
  }, 60_000);
});

describe('staff withdraw / reinstate / reject', () => {
  const url = (pe: number, action: string, event = h.world.events.A.id) =>
    `${P}/events/${event}/participants/${pe}/${action}`;

  it('moves a registration and refuses illegal moves with 422', async () => {
    const pe = h.world.regs.minorA.id;
    const admin = h.world.secrets.seriesOwner;
    const rejected = await call(h.app, 'POST', url(pe, 'reject'), admin, { reason: 'capacity' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ success: true, participant_event_id: pe, status: 'rejected' });
    const withdraw = await call(h.app, 'POST', url(pe, 'withdraw'), admin);
    expect(withdraw.statusCode).toBe(422);
    expect(withdraw.json()).toEqual({ error: 'A registration cannot move from rejected to withdrawn' });
    const again = await call(h.app, 'POST', url(pe, 'reject'), admin);
    expect(again.json()).toEqual({ error: 'Registration is already rejected' });
    const back = await call(h.app, 'POST', url(pe, 'reinstate'), admin);
    expect(back.json()).toMatchObject({ status: 'in_progress' });
    const notWithdrawn = await call(h.app, 'POST', url(pe, 'reinstate'), admin);
    expect(notWithdrawn.statusCode).toBe(422);
    expect(notWithdrawn.json()).toEqual({
      error: 'Only a withdrawn or rejected registration can be reinstated',
    });
    const foreign = await call(h.app, 'POST', url(h.world.regs.regB.id, 'withdraw'), admin);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'Participant not found for this event' });
    const reason = await call(h.app, 'POST', url(pe, 'withdraw'), admin, { reason: 'x'.repeat(1001) });
    expect(reason.statusCode).toBe(422);
  });

  it('a draft event created later is not reachable by its slug on staff routes', async () => {
    const event = await h.t.deps.db.transaction((tx) =>
      createEventRecord(tx, { seriesId: h.world.series.S1.id, name: 'Later', slug: 'later-event' }),
    );
    const res = await call(
      h.app,
      'POST',
      url(1, 'withdraw', event.id).replace(String(event.id), 'later-event'),
      h.world.secrets.admin,
    );
    expect(res.statusCode).toBe(404);
  });
});
