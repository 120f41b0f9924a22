/**
 * The deployed staff mobile app's session replayed in order against a real listening Muster
 * (shared/design/mobile-app.md): every request carries exactly the app's headers (JSON
 * Content-Type and Accept, GET and DELETE included; the bearer token once stored), every path uses
 * the event's numeric id from GET /events, cursors are passed back verbatim, and every field the
 * app reads is asserted. Sign-in is the app's: the authorization code flow with PKCE against its
 * upstream identity provider (a real local oidc-provider), then POST /session with that code.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantEventRole } from '../../src/modules/accounts/users.service.js';
import {
  freePort,
  makeEvent,
  makeRegistrant,
  makeUser,
  type SigninApp,
  startSigninApp,
} from '../signin/harness.js';
import { appAuthorize, startProvider, type TestProvider } from '../signin/provider.js';
import { appHeaders } from '../support/mobile-app.js';
import * as F from './app-fields.js';
import { expectFields, ISO_MICROS, type Json } from './app-fields.js';

const REDIRECT = 'attend://oauth/callback';
const SECRET = 'attend-upstream-secret-0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let t: SigninApp;
let idp: TestProvider;
let eventId: number;
let pat: { personId: number; registrationId: number };
let nico: { personId: number; registrationId: number };
let groupId: number;

beforeAll(async () => {
  idp = await startProvider(
    await freePort(),
    [
      {
        client_id: 'attend-app',
        client_secret: SECRET,
        application_type: 'native',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    {
      olive: { email: 'olive.ops@example.org', email_verified: true },
      pat: { email: 'pat@example.org', email_verified: true },
      sage: { email: 'sage.lead@example.org', email_verified: true },
    },
  );
  t = await startSigninApp({
    port: await freePort(), // MUSTER_BASE_URL = the listening origin (tickets' onboarding_url)
    env: {
      MUSTER_UPSTREAM_TOKEN_URL: `${idp.issuer}/token`,
      MUSTER_UPSTREAM_USERINFO_URL: `${idp.issuer}/userinfo-oauth2`,
      MUSTER_UPSTREAM_CLIENT_ID: 'attend-app',
      MUSTER_UPSTREAM_CLIENT_SECRET: SECRET,
      MUSTER_UPSTREAM_REDIRECT_URIS: REDIRECT,
    },
  });
  const event = await makeEvent(t.deps, 'Harbour Hack');
  eventId = event.id;
  await makeUser(t.deps, 'olive.ops@example.org', { name: 'Olive Ops', opsOf: eventId });
  const sage = await makeUser(t.deps, 'sage.lead@example.org', { name: 'Sage Lead' });
  await t.deps.db.transaction((tx) => grantEventRole(tx, sage.id, eventId, 'safeguarding_lead'));
  pat = await makeRegistrant(t.deps, eventId, 'pat@example.org', 'complete', {
    first: 'Patricia',
    last: 'Doe',
  });
  nico = await makeRegistrant(t.deps, eventId, 'nico@example.org', 'complete', { first: 'Nico', last: 'Ng' });
  const db = t.deps.db;
  await db.execute(sql`UPDATE events SET modules = modules || '{"travel_enabled": true, "nfc_badges_enabled": true,
    "groups_enabled": true}'::jsonb, location_city = 'Oslo', location_country = 'Norway',
    location_address = 'Langkaia 1, 0150 Oslo', location_latitude = 59.9075, location_longitude = 10.7531,
    ends_at = '2027-07-04T16:00:00Z' WHERE id = ${eventId}`);
  await db.execute(
    sql`UPDATE people SET chat_user_id = 'UPAT', pronouns = 'she/her', phone = '+4791234567',
      date_of_birth = '2001-05-04', address = '{"line_1": "Storgata 2", "city": "Oslo", "country": "NO"}'::jsonb
      WHERE id = ${pat.personId}`,
  );
  await recordOf(pat.registrationId);
  await db.execute(
    sql`UPDATE registrations SET nfc_badge_token = 'nfc-nico-1', nfc_badge_assigned_at = now() WHERE id = ${nico.registrationId}`,
  );
  const group = await db.execute<{ id: number }>(
    sql`INSERT INTO groups (event_id, name, color) VALUES (${eventId}, 'Blue team', '#1E90FF') RETURNING id`,
  );
  groupId = group.rows[0]!.id;
  await db.execute(
    sql`INSERT INTO registration_groups (registration_id, group_id) VALUES (${pat.registrationId}, ${groupId})`,
  );
  const travel = await db.execute<{ id: number }>(
    sql`INSERT INTO travels (registration_id, direction, mode) VALUES (${pat.registrationId}, 'inbound', 'plane') RETURNING id`,
  );
  await db.execute(sql`INSERT INTO travel_legs (travel_id, position, flight_code, departure_airport, arrival_airport, arrival_time)
    VALUES (${travel.rows[0]!.id}, 1, 'SK100', 'ARN', 'OSL', '2027-06-30T15:00:00Z')`);
  await db.execute(
    sql`INSERT INTO travels (registration_id, direction, mode, departure_time) VALUES (${pat.registrationId}, 'outbound', 'train', '2027-07-04T10:00:00Z')`,
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** Every section of Pat's record filled in, so the detail view's nested shapes are all checked. */
async function recordOf(registrationId: number): Promise<void> {
  const db = t.deps.db;
  await db.execute(sql`UPDATE registrations SET tshirt_size = 'M', engagement_preference = 'happy_to_chat'
    WHERE id = ${registrationId}`);
  await db.execute(sql`INSERT INTO registration_accommodations (registration_id, check_in_date,
    preferred_roommate_genders, quiet_room_preference) VALUES (${registrationId}, '2027-06-30', 'female', 'yes')`);
  await db.execute(sql`INSERT INTO registration_medical (registration_id, allergies, life_threatening_allergies,
    has_anaphylaxis_risk, allergy_severity, emergency_action_plan)
    VALUES (${registrationId}, 'peanuts', 'peanuts', true, 'severe', 'Auto-injector in her bag')`);
  await db.execute(sql`INSERT INTO registration_dietary (registration_id, diet_type, intolerances)
    VALUES (${registrationId}, 'vegetarian', 'lactose')`);
  await db.execute(sql`INSERT INTO registration_safeguarding (registration_id, high_support_notes,
    curfew_acknowledged) VALUES (${registrationId}, 'Prefers a quiet room to rest', true)`);
  await db.execute(sql`INSERT INTO registration_accessibility (registration_id, data)
    VALUES (${registrationId}, '{"noise_sensitivity": true, "other_needs": "Seat near an exit"}'::jsonb)`);
  await db.execute(sql`INSERT INTO consents (registration_id, consent_type, status, signed_at)
    VALUES (${registrationId}, 'waiver', 'signed', now())`);
  const guardian = await db.execute<{ id: number }>(sql`INSERT INTO guardians (registration_id, name, email,
    phone, relationship, is_primary, status, media_permission, photo_permission)
    VALUES (${registrationId}, 'Gro Doe', 'gro@example.org', '+4790000001', 'parent', true, 'completed',
      'granted', 'denied') RETURNING id`);
  await db.execute(sql`INSERT INTO emergency_contacts (registration_id, guardian_id, name, phone, email,
    relationship, priority) VALUES (${registrationId}, ${guardian.rows[0]!.id}, 'Gro Doe', '+4790000001',
      'gro@example.org', 'parent', 1)`);
}

/** One request as the app's api.ts sends it; the body is read as text, empty → `{}`. */
async function call(
  token: string | undefined,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${t.api}${path}`, {
    method,
    headers: appHeaders(token),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: (text === '' ? {} : JSON.parse(text)) as Json };
}

/** The app's sign-in: the provider's authorize page (PKCE S256), then POST /session with its code. */
async function signIn(login: string): Promise<{ token: string; user: Json }> {
  const { code, verifier } = await appAuthorize(idp, login, 'attend-app', REDIRECT);
  const res = await call(undefined, 'POST', '/session', {
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(res.status).toBe(200);
  expect(typeof res.json.token).toBe('string');
  return { token: res.json.token, user: res.json.user };
}

/** The app's parseQRCode(): `attend://checkin/<x>`, `attend:P:<x>` or a bare UUID; else nothing. */
function parseQr(data: string): string | null {
  const trimmed = data.trim();
  const url = /^attend:\/\/checkin\/([0-9a-f-]+)$/i.exec(trimmed);
  if (url) return url[1]!;
  if (trimmed.startsWith('attend:P:')) return trimmed.slice('attend:P:'.length) || null;
  return UUID.test(trimmed) ? trimmed : null;
}

/** §7: the roster, search and detail base as the app reads it (a caller who sees PII). */
function expectParticipantBase(p: Json) {
  const what = `participant ${p.participant_event_id}`;
  expectFields(what, p, F.PARTICIPANT);
  expect(p.slack_user_id).toBe(p.chat_user_id);
  for (const c of p.scans_by_context as Json[])
    expectFields(`${what} scans_by_context`, c, F.SCANS_BY_CONTEXT);
  for (const key of ['travel_inbound', 'travel_outbound'] as const) {
    if (p[key] === undefined) continue; // omitted without a travel record (the app: absent is fine)
    expectFields(`${what} ${key}`, p[key], F.TRAVEL);
    for (const leg of p[key].legs as Json[]) expectFields(`${what} ${key} leg`, leg, F.TRAVEL_LEG);
  }
}

describe('the mobile app’s session, in order', () => {
  it('signs in, syncs, scans by QR and NFC, undoes, takes notes, reads travel, registers push', async () => {
    // 1. Sign-in (auth.ts): the user object routes the app: staff need is_organizer.
    const staff = await signIn('olive');
    expect(staff.user).toMatchObject({
      email: 'olive.ops@example.org',
      name: 'Olive Ops',
      global_admin: false,
      is_organizer: true,
      is_participant: false,
    });
    expectFields('session user', staff.user, F.ME);
    const token = staff.token;
    const sessionEvent = (staff.user.events as Json[]).find((e) => e.id === eventId)!;
    expectFields('session event', sessionEvent, F.EVENT);
    expect(sessionEvent).toMatchObject({ role: 'ops', series_role: null });

    // 2. Cold start: GET /me (top-level fields).
    const me = await call(token, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(me.json).toEqual({
      id: staff.user.id,
      email: 'olive.ops@example.org',
      name: 'Olive Ops',
      global_admin: false,
      is_organizer: true,
      is_participant: false,
    });

    // 3. GET /events: the app keeps `id` for every later path.
    const events = await call(token, 'GET', '/events');
    expect(events.status).toBe(200);
    const event = (events.json.events as Json[]).find((e) => e.name === 'Harbour Hack')!;
    expect(event).toMatchObject({
      id: eventId,
      slug: expect.any(String),
      starts_at: '2027-07-01T09:00:00.000000Z',
      timezone: expect.any(String),
      location_city: 'Oslo',
      logo_url: null,
      banner_url: null,
      role: 'ops',
      can_view_participants: true,
      can_view_participant_pii: true,
      can_view_sensitive_data: false,
      travel_enabled: true,
    });
    expectFields('event', event, F.EVENT);
    expect(event.ends_at).toBe('2027-07-04T16:00:00.000000Z');
    const E = `/events/${event.id}`;

    // 4. Full participant sync, then a delta with synced_at passed back verbatim.
    const full = await call(token, 'GET', `${E}/participants`);
    expect(full.status).toBe(200);
    expect(full.json.synced_at).toMatch(ISO_MICROS);
    const roster = full.json.participants as Json[];
    expect(roster.map((p) => p.participant_event_id).sort()).toEqual(
      [pat.registrationId, nico.registrationId].sort(),
    );
    for (const p of roster) expectParticipantBase(p);
    const patRow = roster.find((p) => p.participant_event_id === pat.registrationId)!;
    expect(patRow).toMatchObject({
      chat_user_id: 'UPAT',
      slack_user_id: 'UPAT',
      pronouns: 'she/her',
      phone: '+4791234567',
      has_anaphylaxis_risk: true,
      waiver_signed: true,
      checked_in_at: null,
    });
    // Sensitive fields are a safeguarding lead's (step 13); an ops member's rows leave them out.
    for (const key of Object.keys(F.PARTICIPANT_SENSITIVE)) expect(patRow, key).not.toHaveProperty(key);
    expect(patRow).not.toHaveProperty('parent_guardian_name');
    expect(patRow.scans_by_context).toEqual([
      expect.objectContaining({ scan_context_name: 'Event check-in', checks_in: true, scan_count: 0 }),
    ]);
    expect(patRow.travel_outbound).toMatchObject({
      mode: 'train',
      departure_time: '2027-07-04T10:00:00.000000Z',
    });
    expect(patRow.travel_inbound.legs[0]).toMatchObject({
      flight_code: 'SK100',
      departure_airport: 'ARN',
      arrival_airport: 'OSL',
      airport_picked_up_at: null,
    });
    const nicoRow = roster.find((p) => p.participant_event_id === nico.registrationId)!;
    expect(nicoRow).toMatchObject({ nfc_badge_token: 'nfc-nico-1', nfc_badge_assigned: true });
    let participantCursor: string = full.json.synced_at;
    const quiet = await call(
      token,
      'GET',
      `${E}/participants?updated_since=${encodeURIComponent(participantCursor)}`,
    );
    expect(quiet.status).toBe(200);
    expect(quiet.json.participants).toEqual([]);
    participantCursor = quiet.json.synced_at;

    // 5. Scan contexts: one check-in context is selected before scanning.
    const contexts = await call(token, 'GET', `${E}/scan_contexts`);
    expect(contexts.status).toBe(200);
    const checkIn = (contexts.json.scan_contexts as Json[]).find((c) => c.checks_in)!;
    for (const c of contexts.json.scan_contexts as Json[]) expectFields('scan context', c, F.SCAN_CONTEXT);
    expect(checkIn).toMatchObject({ name: 'Event check-in', checks_in: true, is_airport: false });

    // 6. Scan sync bootstrap: no `since`; its synced_at is the cursor.
    const boot = await call(token, 'GET', `${E}/scans`);
    expect(boot.status).toBe(200);
    expect(boot.json).toMatchObject({ scans: [], has_more: false });
    expect(boot.json.synced_at).toMatch(ISO_MICROS);

    // 7. The participant's own app: My Tickets; the QR code holds qr_payload.
    const participant = await signIn('pat');
    expectFields('participant user', participant.user, F.ME);
    expect(participant.user).toMatchObject({ is_organizer: false, is_participant: true });
    const tickets = await call(participant.token, 'GET', '/tickets');
    expect(tickets.status).toBe(200);
    const ticket = (tickets.json.tickets as Json[])[0]!;
    expect(ticket).toMatchObject({
      id: pat.registrationId,
      participant_id: pat.personId,
      status: 'complete',
      display_status: 'Confirmed',
      confirmed: true,
      checked_in: false,
      attendee_name: 'Patricia Doe',
      short_code: String(pat.registrationId),
      onboarding_url: `${t.origin}/register/${pat.registrationId}`,
      event: {
        id: eventId,
        name: 'Harbour Hack',
        ends_at: '2027-07-04T16:00:00.000000Z',
        location_city: 'Oslo',
        location_country: 'Norway',
        location_address: 'Langkaia 1, 0150 Oslo',
        location_latitude: 59.9075,
        location_longitude: 10.7531,
      },
    });
    expectFields('ticket', ticket, F.TICKET);
    expectFields('ticket event', ticket.event, F.TICKET_EVENT);
    expect(ticket.qr_payload).toMatch(UUID);
    const one = await call(participant.token, 'GET', `/tickets/${ticket.id}`);
    expect(one.status).toBe(200);
    expect(one.json.ticket).toEqual(ticket);

    // 8. The scanner reads that QR code; the app sends what its parser extracted.
    const scanned = parseQr(ticket.qr_payload);
    expect(scanned).toBe(ticket.qr_payload);
    const qrBody = {
      participant_id: scanned,
      scan_context_id: checkIn.id,
      client_scan_id: `${Date.now().toString(36)}-qr1`,
      source: 'qr',
      scanned_at: new Date().toISOString(),
    };
    const qr = await call(token, 'POST', `${E}/scans`, qrBody);
    expect(qr.status).toBe(200);
    expect(qr.json).toMatchObject({
      success: true,
      outcome: 'scanned',
      first_scan_in_context: true,
      first_scanned_at: expect.stringMatching(ISO_MICROS),
      scan_context: { id: checkIn.id, name: 'Event check-in' },
      scan: { participant_event_id: pat.registrationId, client_scan_id: qrBody.client_scan_id, source: 'qr' },
    });
    expectFields('scan answer', qr.json, F.CREATE_SCAN);
    expectFields('scan answer scan', qr.json.scan, F.REMOTE_SCAN);
    expectFields('scan answer scan_context', qr.json.scan_context, F.SCAN_CONTEXT);
    expectParticipantBase(qr.json.participant);
    // The result card's fields, and what is merged into the cached record.
    expect(qr.json.participant).toMatchObject({
      participant_event_id: pat.registrationId,
      display_name: 'Patricia Doe',
      full_name: 'Patricia Doe',
      pronouns: 'she/her',
      headshot_url: null,
      has_anaphylaxis_risk: true,
      requires_refrigeration: false,
      high_support_flag: false,
      checked_in_at: qr.json.first_scanned_at,
      scans_by_context: [
        {
          scan_context_id: checkIn.id,
          scan_context_name: 'Event check-in',
          checks_in: true,
          is_airport: false,
          scan_count: 1,
          first_scanned_at: qr.json.first_scanned_at,
          last_scanned_at: qr.json.first_scanned_at,
        },
      ],
    });
    // A retry (timeout) reuses client_scan_id and scanned_at: the same scan, no new row.
    const retry = await call(token, 'POST', `${E}/scans`, qrBody);
    expect(retry.json).toMatchObject({
      outcome: 'scanned',
      deduplicated: true,
      scan: { id: qr.json.scan.id },
    });

    // 9. NFC badge: the token read from the badge's external record.
    const nfc = await call(token, 'POST', `${E}/scans`, {
      badge_token: 'nfc-nico-1',
      scan_context_id: checkIn.id,
      client_scan_id: `${Date.now().toString(36)}-nfc1`,
      source: 'nfc',
      scanned_at: new Date().toISOString(),
    });
    expect(nfc.status).toBe(200);
    expect(nfc.json).toMatchObject({
      outcome: 'scanned',
      first_scan_in_context: true,
      scan: { participant_event_id: nico.registrationId, source: 'nfc' },
      participant: { participant_event_id: nico.registrationId, nfc_badge_token: 'nfc-nico-1' },
    });
    expectFields('NFC scan answer', nfc.json, F.CREATE_SCAN);
    expectParticipantBase(nfc.json.participant);

    // 9b. A ticket of a withdrawn registration (issue 24): the door refuses it; the app shows
    // `error` from the 409, and nothing is stored (the scan sync below has only the two scans).
    const gone = await makeRegistrant(t.deps, eventId, 'gone@example.org', 'withdrawn', {
      first: 'Gina',
      last: 'Gone',
    });
    const goneQr = await t.deps.db.execute<{ uuid: string }>(
      sql`SELECT uuid FROM registrations WHERE id = ${gone.registrationId}`,
    );
    const refused = await call(token, 'POST', `${E}/scans`, {
      participant_id: parseQr(`attend://checkin/${goneQr.rows[0]!.uuid}`),
      scan_context_id: checkIn.id,
      client_scan_id: `${Date.now().toString(36)}-qr2`,
      source: 'qr',
      scanned_at: new Date().toISOString(),
    });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('Not admitted: Registration withdrawn');

    // 10. Incremental scan sync from the bootstrap cursor, as sync.ts pages it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const delta = await call(token, 'GET', `${E}/scans?since=${encodeURIComponent(boot.json.synced_at)}`);
    expect(delta.status).toBe(200);
    expect(delta.json.has_more).toBe(false);
    expect(delta.json.synced_at).toMatch(ISO_MICROS);
    expect((delta.json.scans as Json[]).map((s) => s.id).sort()).toEqual(
      [qr.json.scan.id, nfc.json.scan.id].sort(),
    );
    for (const s of delta.json.scans as Json[]) expectFields('synced scan', s, F.REMOTE_SCAN);
    expect(delta.json.scans).toEqual(expect.arrayContaining([qr.json.scan, nfc.json.scan]));

    // 11. Undo Nico's check-in: DELETE with the JSON Content-Type and no body.
    const undo = await call(
      token,
      'DELETE',
      `${E}/scans/${nico.registrationId}?scan_context_id=${checkIn.id}`,
    );
    expect(undo.status).toBe(200);
    expect(undo.json).toMatchObject({
      success: true,
      deleted_scans: 1,
      participant_event_id: nico.registrationId,
    });

    // 12. The participant delta carries both scan-derived changes.
    const changed = await call(
      token,
      'GET',
      `${E}/participants?updated_since=${encodeURIComponent(participantCursor)}`,
    );
    expect(changed.status).toBe(200);
    const byId = new Map((changed.json.participants as Json[]).map((p) => [p.participant_event_id, p]));
    expect(byId.get(pat.registrationId)?.checked_in_at).toMatch(ISO_MICROS);
    expect(byId.get(pat.registrationId)?.travel_inbound.legs[0].airport_picked_up_at).toMatch(ISO_MICROS);
    expect(byId.get(nico.registrationId)?.checked_in_at).toBeNull();

    // 13. Detail (§7 sections) and notes.
    const detail = await call(token, 'GET', `${E}/participants/${pat.registrationId}`);
    expect(detail.status).toBe(200);
    const d = detail.json.participant as Json;
    expectParticipantBase(d);
    expect(d.slack_user_id).toBe('UPAT');
    expectFields('personal', d.personal, F.PERSONAL);
    expect(d.personal).toMatchObject({
      legal_first_name: 'Patricia',
      date_of_birth: '2001-05-04',
      age: 26,
      tshirt_size: 'M',
      engagement_preference: 'happy_to_chat',
      address: { line_1: 'Storgata 2', city: 'Oslo', country: 'NO' },
    });
    expect(d.personal).not.toHaveProperty('secondary_email'); // not in the spec or Muster's record
    expectFields('accommodation', d.accommodation, F.ACCOMMODATION);
    // Strings, as the spec and docs/decisions.md "Participants API" type them (the app's `.join` expects an array).
    expect(d.accommodation).toMatchObject({
      preferred_roommate_genders: 'female',
      quiet_room_preference: 'yes',
    });
    expect(d.consents).toHaveLength(1);
    expectFields('consent', d.consents[0], F.CONSENT);
    expect(d.consents[0]).toMatchObject({ consent_type: 'waiver', status: 'signed', pending_on: null });
    expect(d.guardians).toHaveLength(1);
    expectFields('guardian', d.guardians[0], F.GUARDIAN);
    // Permissions are strings, nullable (spec, docs/decisions.md "Participants API"); the app tests them for truthiness.
    expect(d.guardians[0]).toMatchObject({
      name: 'Gro Doe',
      email: 'gro@example.org',
      is_primary: true,
      status: 'completed',
      media_permission: 'granted',
      photo_permission: 'denied',
      travel_permission: null,
    });
    expectFields('guardian contact', d.guardians[0].emergency_contacts[0], F.GUARDIAN_CONTACT);
    // An ops member sees no sensitive section (docs/decisions.md "Credentials and roles").
    for (const key of ['medical_detail', 'dietary_detail', 'accessibility', 'safeguarding_detail'])
      expect(d, key).not.toHaveProperty(key);

    // The same detail for a safeguarding lead: the sensitive fields and sections.
    const lead = await signIn('sage');
    const sensitive = await call(lead.token, 'GET', `${E}/participants/${pat.registrationId}`);
    expect(sensitive.status).toBe(200);
    const sd = sensitive.json.participant as Json;
    expectParticipantBase(sd);
    expectFields('sensitive participant', sd, F.PARTICIPANT_SENSITIVE);
    expect(sd).toMatchObject({
      allergies: 'peanuts',
      life_threatening_allergies: 'peanuts',
      diet_type: 'vegetarian',
      parent_guardian_name: 'Gro Doe',
      parent_guardian_phone: '+4790000001',
      parent_guardian_email: 'gro@example.org',
    });
    for (const c of sd.emergency_contacts as Json[])
      expectFields('emergency contact', c, F.EMERGENCY_CONTACT);
    expectFields('medical_detail', sd.medical_detail, F.MEDICAL_DETAIL);
    expectFields('dietary_detail', sd.dietary_detail, F.DIETARY_DETAIL);
    expectFields('safeguarding_detail', sd.safeguarding_detail, F.SAFEGUARDING_DETAIL);
    expect(sd).toMatchObject({
      medical_detail: { allergy_severity: 'severe' },
      dietary_detail: { intolerances: 'lactose' },
      accessibility: { noise_sensitivity: true, other_needs: 'Seat near an exit' },
      safeguarding_detail: { high_support_notes: 'Prefers a quiet room to rest', curfew_acknowledged: true },
    });

    const noNotes = await call(token, 'GET', `${E}/participants/${pat.registrationId}/notes`);
    expect(noNotes).toEqual({ status: 200, json: { notes: [] } });
    const posted = await call(token, 'POST', `${E}/participants/${pat.registrationId}/notes`, {
      content: 'Collected at arrivals',
    });
    expect([200, 201]).toContain(posted.status);
    expectFields('note', posted.json.note, F.NOTE);
    expectFields('note author', posted.json.note.author, F.NOTE_AUTHOR);
    expect(posted.json.note).toMatchObject({
      content: 'Collected at arrivals',
      sensitivity: 'normal',
      note_type: 'ops',
      author: { id: staff.user.id, name: 'Olive Ops', email: 'olive.ops@example.org' },
    });
    const notes = await call(token, 'GET', `${E}/participants/${pat.registrationId}/notes`);
    expect(notes.json.notes).toEqual([posted.json.note]);

    // 14. Search (≥ 2 characters).
    const search = await call(token, 'GET', `${E}/participants/search?q=${encodeURIComponent('Pa')}`);
    expect(search.status).toBe(200);
    expect((search.json.results as Json[]).map((p) => p.participant_event_id)).toContain(pat.registrationId);
    for (const p of search.json.results as Json[]) expectParticipantBase(p);

    // 15. Travel calendar (camelCase).
    const travel = await call(token, 'GET', `${E}/travel`);
    expect(travel.status).toBe(200);
    expect(travel.json.eventTimezone).toEqual(event.timezone);
    for (const entry of travel.json.entries as Json[]) expectFields('travel entry', entry, F.TRAVEL_ENTRY);
    const inbound = (travel.json.entries as Json[]).find((e) => e.direction === 'inbound')!;
    const outbound = (travel.json.entries as Json[]).find((e) => e.direction === 'outbound')!;
    expect(inbound).toMatchObject({
      participantId: pat.personId,
      participantEventId: pat.registrationId,
      participantName: 'Patricia Doe',
      participantPreferredName: null,
      mode: 'plane',
      primaryTimeAt: '2027-06-30T15:00:00.000000Z',
      agendaDate: '2027-06-30',
      route: 'ARN → OSL',
      reference: 'SK100',
      details: null,
      // The first check-in marks the inbound final leg picked up (docs/decisions.md "Check-in").
      pickupState: 'collected',
      isUnaccompaniedMinor: false,
      groups: [{ id: groupId, name: 'Blue team', color: '#1E90FF' }],
    });
    expect(outbound).toMatchObject({
      mode: 'train',
      pickupState: null,
      groups: [{ id: groupId, name: 'Blue team' }],
    });
    expect(Object.keys(travel.json.counts).sort()).toEqual([...F.TRAVEL_COUNT_KEYS].sort());
    expect(travel.json.counts).toEqual({
      total: 2,
      inbound: 1,
      outbound: 1,
      scheduled: 2,
      unscheduled: 0,
      awaitingPickup: 0,
      collected: 1,
      checkedIn: 0,
      pickupNotNeeded: 0,
    });
    expect(travel.json.dates).toEqual(['2027-06-30', '2027-07-04']);

    // 16. Push token registration, after sign-in and on every event selection (422 = already taken).
    const pushToken = 'ExponentPushToken[app-session-0001]';
    const first = await call(token, 'POST', '/push_tokens', { token: pushToken });
    expect(first.status).toBeGreaterThanOrEqual(200);
    expect(first.status).toBeLessThan(300);
    const again = await call(token, 'POST', '/push_tokens', { token: pushToken });
    expect(again.status === 422 || (again.status >= 200 && again.status < 300)).toBe(true);
    const stored = await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM push_tokens WHERE token = ${pushToken} AND user_id = ${staff.user.id}`,
    );
    expect(stored.rows[0]!.n).toBe(1);
  }, 120_000);
});
