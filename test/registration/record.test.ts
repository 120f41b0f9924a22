/**
 * The participant's own record (docs/decisions.md "Registration side" `GET|PATCH /registrations/{participant_event_id}`):
 * every section written and read back, field validation naming the field, the withdrawn/rejected
 * refusal, round-trips that do not duplicate, updated_at and the audit entry.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { people } from '../../src/db/schema/index.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
/** A user linked to the world's minor (awaiting_guardian) and one linked to the withdrawn registration. */
let minorToken: string;
let withdrawnToken: string;
let rejectedToken: string;
const P = '/api/v1';

async function linkUser(email: string, personId: number): Promise<string> {
  return t.deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { email, name: email });
    await tx.update(people).set({ userId: user.id }).where(eq(people.id, personId));
    return (await issueMobileToken(tx, user.id)).secret;
  });
}

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  minorToken = await linkUser('max.minor@example.com', world.regs.minorA.personId);
  withdrawnToken = await linkUser('wanda.withdrawn@example.com', world.regs.withdrawnA.personId);
  rejectedToken = await linkUser('rex.rejected@example.com', world.regs.rejectedA.personId);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: test reads nested JSON freely
type Json = Record<string, any>;
const url = (id: number | string) => `${P}/registrations/${id}`;
const read = async (id: number, token: string): Promise<Json> => {
  const res = await app.inject({ method: 'GET', url: url(id), headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return (res.json() as Json).participant;
};
const patch = (id: number, token: string, payload: unknown) =>
  app.inject({ method: 'PATCH', url: url(id), headers: bearer(token), payload: payload as object });

describe('GET own record', () => {
  it('returns every section including the sensitive ones', async () => {
    const p = await read(world.regs.adultA.id, world.users.participant.mobile);
    expect(p.participant_event_id).toBe(world.regs.adultA.id);
    expect(p.allergies).toBe('Peanuts');
    expect(p.medical_detail).toEqual({
      allergy_severity: 'severe',
      emergency_action_plan: 'EpiPen then 999',
      additional_notes: 'Carries two pens',
    });
    expect(p.accessibility).toEqual({ wheelchair: true, notes: 'Needs ramp' });
    expect(p.personal.date_of_birth).toBe('1990-04-01');
    expect(p.travel_inbound.origin_address).toBe('1 Beacon St, Boston MA');
  });

  it('is private: 403 for anyone else, 404 for unknown or malformed ids', async () => {
    const other = await app.inject({
      method: 'GET',
      url: url(world.regs.adultA.id),
      headers: bearer(minorToken),
    });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ error: 'This is not your registration' });
    for (const id of ['99999999', 'abc', '1e3', '-1']) {
      const res = await app.inject({ method: 'GET', url: url(id), headers: bearer(minorToken) });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'Registration not found' });
    }
  });
});

describe('PATCH own record', () => {
  it('writes every section and returns the updated record; bumps updated_at; audits', async () => {
    const id = world.regs.minorA.id;
    const before = await read(id, minorToken);
    const res = await patch(id, minorToken, {
      phone: '+44 7700 900555',
      pronouns: 'he/him',
      allergies: 'Kiwi',
      has_anaphylaxis_risk: false,
      diet_type: 'vegan',
      personal: {
        preferred_name: 'Maxi',
        date_of_birth: '2011-03-04',
        tshirt_size: 'S',
        engagement_notes: null,
        address: { line_1: '2 Low Road', city: 'York', postal_code: '', country: 'GB' },
      },
      accommodation: { check_in_date: '2026-07-09', check_out_date: '2026-07-14', notes: 'Top bunk' },
      medical_detail: { allergy_severity: 'mild', additional_notes: null },
      dietary_detail: { intolerances: 'gluten' },
      accessibility: { hearing_loop: true },
      safeguarding_detail: { curfew_acknowledged: false, other_instructions: 'Calls home nightly' },
      travel_inbound: {
        mode: 'plane',
        carrier: 'Sky Air',
        legs: [
          {
            flight_code: 'sk 12',
            departure_airport: 'edi',
            arrival_airport: 'LHR',
            departure_time: '2026-07-09T08:00:00Z',
            arrival_time: '2026-07-09T09:30:00Z',
          },
        ],
      },
      travel_outbound: { mode: 'train', train_departure_station: 'London', train_arrival_station: 'York' },
      emergency_contacts: [{ name: 'Auntie Minor', phone: '+447700900300', relationship: 'aunt' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const p = (res.json() as Json).participant;
    expect(p.phone).toBe('+44 7700 900555');
    expect(p.pronouns).toBe('he/him');
    expect(p.allergies).toBe('Kiwi');
    expect(p.medical_conditions).toBe('Asthma'); // absent key: kept
    expect(p.has_anaphylaxis_risk).toBe(false);
    expect(p.diet_type).toBe('vegan');
    expect(p.personal).toMatchObject({
      legal_first_name: 'Max',
      preferred_name: 'Maxi',
      date_of_birth: '2011-03-04',
      tshirt_size: 'S',
      engagement_notes: null,
      address: { line_1: '2 Low Road', city: 'York', country: 'GB' },
    });
    expect(p.accommodation).toMatchObject({
      check_in_date: '2026-07-09',
      notes: 'Top bunk',
      assigned_room: '101',
    });
    expect(p.medical_detail).toEqual({
      allergy_severity: 'mild',
      emergency_action_plan: 'EpiPen then 999',
      additional_notes: null,
    });
    expect(p.dietary_detail).toEqual({ intolerances: 'gluten', notes: 'No mushrooms' });
    expect(p.accessibility).toEqual({ hearing_loop: true });
    expect(p.safeguarding_detail).toMatchObject({
      curfew_acknowledged: false,
      other_instructions: 'Calls home nightly',
    });
    expect(p.travel_inbound).toMatchObject({ direction: 'inbound', mode: 'plane', carrier: 'Sky Air' });
    expect(p.travel_inbound.legs).toHaveLength(1);
    expect(p.travel_inbound.legs[0]).toMatchObject({
      position: 1,
      flight_code: 'SK12',
      departure_airport: 'EDI',
      arrival_airport: 'LHR',
      departure_time: '2026-07-09T08:00:00.000000Z',
    });
    expect(p.travel_outbound).toMatchObject({ mode: 'train', train_arrival_station: 'York' });
    // The guardian's contact (Grandma) is listed with the registration's own (now only Auntie).
    expect(p.emergency_contacts.map((c: Json) => c.name).sort()).toEqual(['Auntie Minor', 'Grandma Minor']);
    expect(p.guardians).toHaveLength(2); // not in the patch: kept
    expect(p.updated_at > before.updated_at).toBe(true);
    const audit = await t.deps.database.pool.query(
      `SELECT action, target_id, metadata, credential_kind FROM audit_log WHERE action = 'registrations.record.update'`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].target_id).toBe(String(id));
    expect(audit.rows[0].credential_kind).toBe('mobile');
    expect(audit.rows[0].metadata.sections).toEqual([
      'phone',
      'pronouns',
      'allergies',
      'has_anaphylaxis_risk',
      'diet_type',
      'personal',
      'accommodation',
      'medical_detail',
      'dietary_detail',
      'accessibility',
      'safeguarding_detail',
      'travel_inbound',
      'travel_outbound',
      'emergency_contacts',
    ]);
    expect(JSON.stringify(audit.rows[0].metadata)).not.toContain('Kiwi');
  });

  it('guardians: matched by email keep their id and data, others go; round-trips never duplicate', async () => {
    const id = world.regs.minorA.id;
    const before = await read(id, minorToken);
    const gina = before.guardians.find((g: Json) => g.email === 'gina.guardian@example.com');
    const res = await patch(id, minorToken, {
      guardians: [
        {
          name: 'Gina G. Guardian',
          email: 'GINA.guardian@example.com ',
          phone: '+447700900100',
          relationship: 'mother',
          is_primary: true,
        },
        { name: 'Gail Grand', email: 'gail@example.com', relationship: 'grandmother' },
      ],
      // A GET → PATCH round-trip of the combined list: the guardian's contact is not copied.
      emergency_contacts: before.emergency_contacts,
    });
    expect(res.statusCode, res.body).toBe(200);
    const p = (res.json() as Json).participant;
    expect(p.guardians.map((g: Json) => [g.name, g.email, g.status])).toEqual([
      ['Gina G. Guardian', 'gina.guardian@example.com', 'accepted'],
      // The minor is awaiting_guardian: a guardian added now is invited at once (guardian-added.test.ts).
      ['Gail Grand', 'gail@example.com', 'invited'],
    ]);
    const kept = p.guardians[0];
    expect(kept.id).toBe(gina.id);
    expect(kept.media_permission).toBe('yes');
    expect(kept.emergency_contacts.map((c: Json) => c.name)).toEqual(['Grandma Minor']);
    expect(p.emergency_contacts.map((c: Json) => c.name).sort()).toEqual(
      before.emergency_contacts.map((c: Json) => c.name).sort(),
    );
    expect(p.parent_guardian_name).toBe('Gina G. Guardian');
  });

  it('an empty patch changes nothing', async () => {
    const before = await snapshotDb(t.deps);
    const res = await patch(world.regs.minorA.id, minorToken, {});
    expect(res.statusCode).toBe(200);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it.each([
    [
      { personal: { date_of_birth: '2010-13-01' } },
      'personal.date_of_birth must be a valid date (YYYY-MM-DD) or null',
    ],
    [{ personal: { date_of_birth: '2999-01-01' } }, 'personal.date_of_birth must not be in the future'],
    [{ personal: { date_of_birth: '1850-01-01' } }, 'personal.date_of_birth must be 1900-01-01 or later'],
    [
      { personal: { tshirt_size: 'XXXXL' } },
      'personal.tshirt_size must be one of "XS", "S", "M", "L", "XL", "XXL", "XXXL"',
    ],
    [
      { personal: { legal_first_name: '' } },
      'personal.legal_first_name must not have fewer than 1 characters',
    ],
    [{ personal: { age: 14 } }, 'personal has unknown field: age'],
    [{ accommodation: { assigned_room: '999' } }, 'accommodation has unknown field: assigned_room'],
    [
      { accommodation: { check_in_date: '2026-07-10', check_out_date: '2026-07-09' } },
      'accommodation.check_out_date must not be before accommodation.check_in_date',
    ],
    [{ phone: '12' }, 'phone must be a phone number in international format, e.g. +447700900123'],
    [
      { emergency_contacts: [{ name: 'A', phone: 'call me', relationship: 'x' }] },
      'emergency_contacts[0].phone must be a phone number in international format, e.g. +447700900123',
    ],
    [{ emergency_contacts: [{ name: 'A', relationship: 'x' }] }, 'emergency_contacts[0].phone is required'],
    [
      { guardians: [{ name: 'G', email: 'not-an-email' }] },
      'guardians[0].email must be a valid email address',
    ],
    [{ guardians: [{ name: 'G' }] }, 'guardians[0].email is required'],
    [
      { guardians: [{ name: 'G', email: 'g@x.org', status: 'completed' }] },
      'guardians[0] has unknown field: status',
    ],
    [
      {
        guardians: [
          { name: 'G', email: 'g@x.org', is_primary: true },
          { name: 'H', email: 'h@x.org', is_primary: true },
        ],
      },
      'guardians: at most one guardian can be is_primary',
    ],
    [
      {
        guardians: [
          { name: 'G', email: 'g@x.org' },
          { name: 'H', email: 'G@x.org' },
        ],
      },
      'guardians[1].email duplicates guardians[0].email',
    ],
    [
      { travel_inbound: { mode: 'rocket' } },
      'travel_inbound.mode must be one of "plane", "train", "car", "bus", "other"',
    ],
    [{ travel_inbound: { carrier: 'X' } }, 'travel_inbound.mode is required'],
    [
      { travel_inbound: { mode: 'plane', legs: [{ departure_airport: 'LOND' }] } },
      'travel_inbound.legs[0].departure_airport must be a 3-letter IATA airport code, e.g. LHR',
    ],
    [
      { travel_inbound: { mode: 'plane', legs: [{ flight_code: 'flight 12' }] } },
      'travel_inbound.legs[0].flight_code must be an IATA flight number, e.g. BA117',
    ],
    [
      { travel_inbound: { mode: 'plane', legs: [{ departure_time: 'tomorrow' }] } },
      'travel_inbound.legs[0].departure_time must be an ISO 8601 date-time with a time zone (e.g. 2026-05-01T09:30:00Z) or null',
    ],
    [
      {
        travel_outbound: {
          mode: 'car',
          departure_time: '2026-07-14T10:00:00Z',
          arrival_time: '2026-07-14T09:00:00Z',
        },
      },
      'travel_outbound.arrival_time must not be before travel_outbound.departure_time',
    ],
    [
      { travel_inbound: { mode: 'plane', legs: [{ live_status: 'landed' }] } },
      'travel_inbound.legs[0] has unknown field: live_status',
    ],
    [{ consents: [] }, 'body has unknown field: consents'],
    [{ status: 'complete', nickname: 'x' }, 'body has unknown fields: status, nickname'],
    [{ accommodation: null }, 'accommodation must be object'],
    [[1, 2], 'The request body must be a JSON object of record sections'],
  ])('422 naming the field: %j', async (payload, error) => {
    const before = await snapshotDb(t.deps);
    const res = await patch(world.regs.minorA.id, minorToken, payload);
    expect(res.statusCode).toBe(422);
    // `error` as before; `problems` carries the same messages, one per field (problems.test.ts).
    const body = res.json() as { error: string; problems: { field: string; message: string }[] };
    expect(body).toEqual({ error, problems: expect.any(Array) });
    expect(body.problems.map((p) => p.message).join('; ')).toBe(error);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('lists every problem of one request in one 422', async () => {
    const res = await patch(world.regs.minorA.id, minorToken, {
      personal: { date_of_birth: 'soon' },
      phone: 42,
      extra: true,
    });
    expect(res.statusCode).toBe(422);
    const error = (res.json() as Json).error as string;
    expect(error).toContain('body has unknown field: extra');
    expect(error).toContain('personal.date_of_birth must be');
    expect(error).toContain('phone must be');
  });

  it('refuses edits once withdrawn or rejected (409), after validating the body (422)', async () => {
    for (const [reg, token, status] of [
      [world.regs.withdrawnA, withdrawnToken, 'withdrawn'],
      [world.regs.rejectedA, rejectedToken, 'rejected'],
    ] as const) {
      const before = await snapshotDb(t.deps);
      const res = await patch(reg.id, token, { pronouns: 'she/her' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: `This registration is ${status} and can no longer be edited` });
      const bad = await patch(reg.id, token, { pronouns: 7 });
      expect(bad.statusCode).toBe(422);
      expect(await snapshotDb(t.deps)).toEqual(before);
      // Reading stays possible.
      expect((await read(reg.id, token)).status).toBe(status);
    }
  });

  it('checks ownership before the body: someone else’s registration with a bad body is 403', async () => {
    const res = await patch(world.regs.adultA.id, minorToken, { nope: 1 });
    expect(res.statusCode).toBe(403);
    const missing = await patch(99999999, minorToken, { nope: 1 });
    expect(missing.statusCode).toBe(404);
  });

  it('malformed JSON is 400', async () => {
    const res = await app.inject({
      method: 'PATCH',
      url: url(world.regs.minorA.id),
      headers: { ...bearer(minorToken), 'content-type': 'application/json' },
      payload: '{"personal":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Malformed JSON in request body' });
  });

  it('staff see the participant’s edit through the participants endpoint', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `${P}/events/${world.events.A.id}/participants/${world.regs.minorA.id}`,
      headers: bearer(world.users.safeguarding.mobile),
    });
    const p = (res.json() as Json).participant;
    expect(p.personal.preferred_name).toBe('Maxi');
    const rows = await t.deps.db.execute(
      sql`SELECT count(*)::int AS n FROM guardians WHERE registration_id = ${world.regs.minorA.id}`,
    );
    expect(rows.rows[0]).toEqual({ n: 2 });
  });

  it('a submitted record re-runs the completion check after an edit', async () => {
    const id = world.regs.adultA.id;
    const pool = t.deps.database.pool;
    // Submitted, not yet complete (a `complete` one moves back only on a declined consent or guardian).
    await pool.query(
      `UPDATE registrations SET status = 'in_progress', submitted_at = now() WHERE id = ${id}`,
    );
    await pool.query(
      `INSERT INTO consents (registration_id, consent_type, status, signed_at) VALUES (${id}, 'freedom_waiver', 'signed', now())`,
    );
    const token = world.users.participant.mobile;
    const minor = await patch(id, token, { personal: { date_of_birth: '2012-01-01' } });
    expect(minor.statusCode, minor.body).toBe(200);
    expect((minor.json() as Json).participant.status).toBe('awaiting_guardian');
    const adult = await patch(id, token, { personal: { date_of_birth: '1990-04-01' } });
    expect((adult.json() as Json).participant.status).toBe('complete');
    const moves = await pool.query(
      `SELECT metadata->>'from' AS f, metadata->>'to' AS t, metadata->>'by' AS by FROM audit_log
        WHERE action = 'registrations.transition' AND target_id = '${id}' ORDER BY id`,
    );
    expect(moves.rows).toEqual([
      { f: 'in_progress', t: 'awaiting_guardian', by: 'participant' },
      { f: 'awaiting_guardian', t: 'complete', by: 'participant' },
    ]);
  });
});
