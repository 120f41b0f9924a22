/**
 * End to end: a minor's registration goes to `complete` through the HTTP API, with every
 * email read from a real SMTP server: invite (event key) → invitation email → the participant signs
 * in (one-time code by email, OAuth code + PKCE, POST /session) → POST /registrations → PATCH the
 * record (minor's date of birth, emergency contact, guardian) → submit → awaiting_guardian →
 * guardian email → guardian portal (view, permissions, complete, typed consent signatures) → complete.
 * Sign-in never creates accounts (docs/decisions.md "Account and sessions"): the invitee first claims the invitation
 * (`POST /invitations/claim`), which makes sure the invited address has an account.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, P, type RegHarness, startRegHarness } from '../registration/harness.js';
import { formFields } from '../signin/harness.js';

let h: RegHarness;

beforeAll(async () => {
  h = await startRegHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: test reads nested JSON freely
type Json = Record<string, any>;
const EMAIL = 'mia.minor@example.com';
const GUARDIAN = 'greta.minor@example.com';
const REDIRECT = 'muster://oauth/callback';

function form(url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The app's sign-in: authorize page → email form → code from SMTP → redirect with code → POST /session. */
async function signIn(email: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'muster-mobile',
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'e2e',
  });
  const page = await h.app.inject({
    method: 'GET',
    url: `${P}/oauth/authorize?${query}`,
    headers: { accept: 'text/html' },
  });
  expect(page.statusCode).toBe(200);
  const emailForm = formFields(page.body, '/authorize/email');
  const before = h.smtp.received.length;
  const sent = await form(emailForm.action, { ...emailForm.fields, email });
  expect(sent.statusCode).toBe(200);
  const codeForm = formFields(sent.body);
  const mail = await h.smtp.waitFor(
    (m) => m.to.includes(email) && /sign-in code/.test(m.subject) && h.smtp.received.indexOf(m) >= before,
  );
  const code = /Your sign-in code is (\d{6})/.exec(mail.text)![1]!;
  const verified = await form(codeForm.action, { ...codeForm.fields, code });
  expect(verified.statusCode).toBe(302);
  const location = new URL(String(verified.headers.location));
  expect(location.searchParams.get('state')).toBe('e2e');
  const session = await call(h.app, 'POST', `${P}/session`, undefined, {
    code: location.searchParams.get('code'),
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(session.statusCode, session.body).toBe(200);
  return session.json().token as string;
}

describe('a minor registers end to end over HTTP', () => {
  it('invited → in_progress → awaiting_guardian → complete, emails from SMTP', {
    timeout: 120_000,
  }, async () => {
    const { world } = h;
    const eventA = world.events.A;

    // 1. An integration invites the participant with the event's API key.
    const invite = await call(
      h.app,
      'POST',
      `${P}/events/${eventA.slug}/participants`,
      world.secrets.eventKeyA,
      {
        email: EMAIL,
        first_name: 'Mia',
        last_name: 'Minor',
      },
    );
    expect(invite.statusCode, invite.body).toBe(201);
    const invitation = await h.smtp.waitFor((m) => m.to.includes(EMAIL) && m.subject.includes('invited'));
    expect(invitation.from).toBe(eventA.supportEmail);
    const invitationToken = /token=([A-Za-z0-9_-]+)/.exec(invitation.text)![1]!;

    // 2. The invitee claims the invitation (an account for the invited address), then signs in by
    //    emailed code.
    const claimed = await h.app.inject({
      method: 'POST',
      url: `${P}/invitations/claim`,
      payload: { invitation_token: invitationToken },
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toEqual({ email: EMAIL, event: expect.any(String) });
    const mobile = await signIn(EMAIL);

    // 3. Start the registration from the invitation.
    const started = await call(h.app, 'POST', `${P}/registrations`, mobile, {
      invitation_token: invitationToken,
    });
    expect(started.statusCode, started.body).toBe(201);
    const pe = started.json().ticket.id as number;
    expect(started.json().ticket.status).toBe('in_progress');

    // 4. Fill in the record: a minor on the event's start date, with a guardian.
    const patched = await call(h.app, 'PATCH', `${P}/registrations/${pe}`, mobile, {
      phone: '+447700900321',
      personal: { date_of_birth: '2012-03-04', preferred_name: 'Mimi', tshirt_size: 'S' },
      emergency_contacts: [{ name: 'Aunt Ada', phone: '+447700900322', relationship: 'aunt' }],
      guardians: [
        {
          name: 'Greta Minor',
          email: GUARDIAN,
          phone: '+447700900323',
          relationship: 'mother',
          is_primary: true,
        },
      ],
      travel_inbound: {
        mode: 'plane',
        legs: [
          {
            flight_code: 'BA1',
            departure_airport: 'EDI',
            arrival_airport: 'LHR',
            departure_time: '2026-07-09T08:00:00Z',
            arrival_time: '2026-07-09T09:30:00Z',
          },
        ],
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const record = patched.json().participant as Json;
    expect(record.personal.age).toBe(14);
    expect(record.guardians).toEqual([expect.objectContaining({ email: GUARDIAN, status: 'pending' })]);

    // 5. Submit: a minor waits for the guardian, who is emailed a 7-day portal link.
    const submitted = await call(h.app, 'POST', `${P}/registrations/${pe}/submit`, mobile);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().ticket.status).toBe('awaiting_guardian');
    const guardianMail = await h.smtp.waitFor((m) => m.to.includes(GUARDIAN));
    expect(guardianMail.from).toBe(eventA.supportEmail);
    const portalToken = /\/guardian\/accept\?token=([A-Za-z0-9_-]{20,})/.exec(guardianMail.text)![1]!;

    // 6. The guardian's portal: the child's summary, the permissions, the consents to sign.
    const portal = await call(h.app, 'GET', `${P}/guardian/${portalToken}`);
    expect(portal.statusCode, portal.body).toBe(200);
    const view = portal.json() as Json;
    expect(view.child).toMatchObject({
      participant_event_id: pe,
      display_name: 'Mimi',
      age: 14,
      status: 'awaiting_guardian',
    });
    expect(view.guardian).toMatchObject({ email: GUARDIAN, status: 'invited' });
    const consents = view.consents as Json[];
    expect(consents.map((c) => c.consent_type)).toEqual(['waiver', 'freedom_waiver']);

    const answered = await call(h.app, 'PATCH', `${P}/guardian/${portalToken}`, undefined, {
      media_permission: 'granted',
      photo_permission: 'denied',
      travel_permission: 'granted',
      emergency_medical_consent: 'granted',
      emergency_contacts: [{ name: 'Grandpa Minor', phone: '+447700900324', relationship: 'grandfather' }],
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().guardian.status).toBe('accepted');

    const done = await call(h.app, 'POST', `${P}/guardian/${portalToken}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().guardian.status).toBe('completed');
    expect(done.json().child.status).toBe('awaiting_guardian'); // consents not signed yet

    // 7. The guardian signs the consents; the last signature completes the registration.
    for (const consent of consents) {
      const signed = await call(
        h.app,
        'POST',
        `${P}/guardian/${portalToken}/consents/${consent.id}/sign`,
        undefined,
        {
          signature_name: 'Greta Minor',
        },
      );
      expect(signed.statusCode, signed.body).toBe(200);
    }
    const finalView = await call(h.app, 'GET', `${P}/guardian/${portalToken}`);
    expect(finalView.json().child.status).toBe('complete');
    expect(finalView.json().consents).toEqual([]);

    // 8. The participant and the staff see it complete.
    const own = await call(h.app, 'GET', `${P}/registrations/${pe}`, mobile);
    expect(own.json().participant).toMatchObject({ status: 'complete', waiver_signed: true });
    const ticket = await call(h.app, 'GET', `${P}/tickets/${pe}`, mobile);
    expect(ticket.json().ticket ?? ticket.json()).toMatchObject({ status: 'complete' });
    const staff = await call(
      h.app,
      'GET',
      `${P}/events/${eventA.id}/participants/${pe}`,
      world.secrets.safeguarding,
    );
    expect(staff.json().participant).toMatchObject({
      status: 'complete',
      parent_guardian_name: 'Greta Minor',
      parent_guardian_email: GUARDIAN,
    });
    expect(staff.json().participant.guardians[0]).toMatchObject({
      status: 'completed',
      photo_permission: 'denied',
    });

    // Every move audited, in order.
    const moves = await h.t.deps.database.pool.query(
      `SELECT metadata->>'from' AS f, metadata->>'to' AS t, metadata->>'by' AS by FROM audit_log
        WHERE action = 'registrations.transition' AND target_id = $1 ORDER BY id`,
      [String(pe)],
    );
    expect(moves.rows.map((r) => `${r.f}→${r.t}`)).toEqual([
      'invited→in_progress',
      'in_progress→awaiting_guardian',
      'awaiting_guardian→complete',
    ]);
  });
});
