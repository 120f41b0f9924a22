/**
 * Participant import: validation messages (item, email, field), CSV mapping, and the write rules of
 * importParticipants (absent keeps, null clears, lists replace, guardians keep their ids, nothing
 * duplicated, refused items write nothing).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { banEmails, bans } from '../../src/db/schema/index.js';
import { ApiError } from '../../src/lib/errors.js';
import { createEventRecord, createSeries } from '../../src/modules/events/records.service.js';
import { parseCsv } from '../../src/modules/participants/import.parse.js';
import {
  type ImportItem,
  importParticipants,
  validateImportItems,
} from '../../src/modules/registration/import/import.service.js';
import { withFreshDatabase } from '../cli/harness.js';

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(422);
    return (error as ApiError).message;
  }
  throw new Error('expected a 422');
}

describe('import validation', () => {
  it('names the item, its email and the field; never throws anything but a 422', () => {
    const message = problemOf(() =>
      validateImportItems([
        { email: 'ok@example.org' },
        { email: 'x@example.org', status: 'done', personal: { date_of_birth: '2010-02-30' }, extra: 1 },
        { email: 'OK@example.org ' },
      ]),
    );
    expect(message).toContain('items[1] (x@example.org): item has unknown field: extra');
    expect(message).toContain('items[1] (x@example.org): status must be one of "invited"');
    expect(message).toContain('personal.date_of_birth must be a valid date (YYYY-MM-DD)');
    expect(message).toContain('items[2] (OK@example.org): email duplicates items[0]');
    for (const bad of [
      null,
      {},
      'text',
      [],
      [null],
      [[1]],
      [{ email: 5 }],
      [{ email: 'a@b.co', guardians: [{ email: 'nope' }] }],
    ]) {
      expect(() => validateImportItems(bad)).toThrow(ApiError);
    }
  });

  it('accepts and ignores the read-only fields of an exported ParticipantDetail', () => {
    const [item] = validateImportItems([
      {
        email: ' Ann@Example.org ',
        participant_id: 4,
        display_name: 'Ann',
        scans_by_context: [],
        waiver_signed: true,
      },
    ]);
    expect(item!.email).toBe('ann@example.org');
  });

  it('maps CSV columns to item fields and names CSV lines and columns in problems', () => {
    const [row] = parseCsv(
      'Email,first_name,last_name,address_city,guardian_name,emergency_contact_name,emergency_contact_phone,emergency_contact_relationship\n' +
        'a@example.org,Ann,Bee,York,Mum Bee,Uncle,+44 1,Uncle\n',
    );
    expect(row).toEqual({
      email: 'a@example.org',
      personal: { legal_first_name: 'Ann', legal_last_name: 'Bee', address: { city: 'York' } },
      guardians: [{ name: 'Mum Bee', is_primary: true }],
      emergency_contacts: [{ name: 'Uncle', phone: '+44 1', relationship: 'Uncle' }],
    });
    expect(problemOf(() => parseCsv('email,date_of_birth\n\na@example.org,31/12/2010\n'))).toContain(
      'line 3: date_of_birth must be a valid date',
    );
    expect(problemOf(() => parseCsv('email,emergency_contact_phone\na@example.org,+44\n'))).toContain(
      'emergency_contact_name is required',
    );
    expect(problemOf(() => parseCsv('email,foo,bar\n'))).toContain('Unknown CSV columns: foo, bar');
    const [full] = parseCsv(
      'email,engagement_preference,life_threatening_allergies,allergy_severity,emergency_action_plan,medical_notes,intolerances,dietary_notes,high_support_notes,authorized_pickup_adults,has_anaphylaxis_risk,requires_refrigeration,cross_contamination_risk,high_support_flag,can_leave_unaccompanied,freedom_waiver_granted,check_in_date,check_out_date,gender_identity,room_type_preference,roommate_preferences,accessibility_needs,accommodation_notes\n' +
        'b@example.org,Talks,Peanuts,severe,EpiPen,Two pens,lactose,No mushrooms,Twice daily,Mum,Yes,no,TRUE,0,1,false,2027-07-01,2027-07-05,Woman,Twin,Quiet,Ground floor,Late\n',
    );
    expect(full).toEqual({
      email: 'b@example.org',
      personal: { engagement_preference: 'Talks' },
      life_threatening_allergies: 'Peanuts',
      medical_detail: {
        allergy_severity: 'severe',
        emergency_action_plan: 'EpiPen',
        additional_notes: 'Two pens',
      },
      dietary_detail: { intolerances: 'lactose', notes: 'No mushrooms' },
      safeguarding_detail: { high_support_notes: 'Twice daily', authorized_pickup_adults: 'Mum' },
      has_anaphylaxis_risk: true,
      requires_refrigeration: false,
      cross_contamination_risk: true,
      high_support_flag: false,
      can_leave_unaccompanied: true,
      freedom_waiver_granted: false,
      accommodation: {
        check_in_date: '2027-07-01',
        check_out_date: '2027-07-05',
        gender_identity: 'Woman',
        room_type_preference: 'Twin',
        roommate_preferences: 'Quiet',
        accessibility_needs: 'Ground floor',
        notes: 'Late',
      },
    });
    expect(problemOf(() => parseCsv('email,high_support_flag\na@example.org,maybe\n'))).toContain(
      'line 2: high_support_flag must be boolean',
    );
    expect(problemOf(() => parseCsv('email,first_name\na@example.org,"unterminated\n'))).toContain(
      'not valid CSV',
    );
  });
});

async function setup(db: Db): Promise<number> {
  const series = await createSeries(db, { name: 'Import Tests' });
  const event = await createEventRecord(db, { seriesId: series.id, name: 'Import Event' });
  return event.id;
}

const full = (): ImportItem => ({
  email: 'ann@example.org',
  status: 'complete',
  allergies: 'peanuts',
  personal: { legal_first_name: 'Ann', legal_last_name: 'Bee', preferred_name: 'Annie' },
  accommodation: { assigned_room: 'B12', notes: 'Near the lift' },
  medical_detail: { allergy_severity: 'severe' },
  guardians: [
    {
      name: 'Pat Bee',
      email: 'pat@example.org',
      is_primary: true,
      emergency_contacts: [{ name: 'Gran', phone: '+44 7700 900001', relationship: 'Gran' }],
    },
    { name: 'Sam Bee', email: 'sam@example.org' },
  ],
  // As in an export: the guardian's contact (Gran) is listed at the top level too; it is not duplicated.
  emergency_contacts: [
    { name: 'Uncle', phone: '+44 7700 900002', relationship: 'Uncle' },
    { name: 'Gran', phone: '+44 7700 900001', relationship: 'Gran' },
  ],
  travel_inbound: {
    mode: 'plane',
    legs: [{ flight_code: 'KL1', travel_picked_up_at: '2026-01-01T10:00:00Z' }, { flight_code: 'KL2' }],
  },
  travel_outbound: { mode: 'bus' },
});

describe('importParticipants', { timeout: 120_000 }, () => {
  it('creates, then updates in place following the key rules, and refuses bad items without writing', async () => {
    await withFreshDatabase(async (db) => {
      const eventId = await setup(db);
      const q = async (text: string) => (await db.execute(sql.raw(text))).rows;

      const first = await db.transaction((tx) => importParticipants(tx, eventId, [full()]));
      expect(first).toEqual({ created: 1, updated: 0, registrationIds: [expect.any(Number)] });
      const guardianIds = await q('SELECT id, email FROM guardians ORDER BY email');

      // Same file again: nothing duplicated, guardians keep their ids.
      const again = await db.transaction((tx) => importParticipants(tx, eventId, [full()]));
      expect(again).toEqual({ created: 0, updated: 1, registrationIds: first.registrationIds });
      expect(await q('SELECT id, email FROM guardians ORDER BY email')).toEqual(guardianIds);
      expect((await q('SELECT count(*)::int AS n FROM emergency_contacts'))[0]!.n).toBe(2);

      // Sparse update: absent keys kept, null clears, lists replace.
      await db.transaction((tx) =>
        importParticipants(tx, eventId, [
          {
            email: 'ANN@example.org',
            accommodation: null,
            medical_detail: null,
            guardians: [{ name: 'Sam Bee', email: 'Sam@Example.org', relationship: 'Father' }],
            travel_inbound: { mode: 'plane', legs: [{ flight_code: 'KL9' }] },
            travel_outbound: null,
          },
        ]),
      );
      expect(
        await q(`SELECT p.preferred_name, r.status FROM people p JOIN registrations r ON r.person_id = p.id`),
      ).toEqual([{ preferred_name: 'Annie', status: 'complete' }]);
      expect(await q('SELECT count(*)::int AS n FROM registration_accommodations')).toEqual([{ n: 0 }]);
      expect(await q('SELECT allergies, allergy_severity FROM registration_medical')).toEqual([
        { allergies: 'peanuts', allergy_severity: null },
      ]);
      const sam = guardianIds.find((g) => g.email === 'sam@example.org')!;
      expect(await q('SELECT id, relationship FROM guardians')).toEqual([
        { id: sam.id, relationship: 'Father' },
      ]);
      expect(await q('SELECT name FROM emergency_contacts ORDER BY name')).toEqual([{ name: 'Uncle' }]); // Pat's contact went with Pat
      // The leg at position 1 keeps its pickup time (absent = kept); position 2 is gone.
      expect(
        await q('SELECT position, flight_code, travel_picked_up_at IS NOT NULL AS picked FROM travel_legs'),
      ).toEqual([{ position: 1, flight_code: 'KL9', picked: true }]);
      expect(await q('SELECT direction FROM travels')).toEqual([{ direction: 'inbound' }]);

      // A banned email, or a new person without names: 422, nothing written.
      const [ban] = await db.insert(bans).values({ reason: 'test' }).returning();
      await db.insert(banEmails).values({ banId: ban!.id, email: 'banned@example.org' });
      const refused = db.transaction((tx) =>
        importParticipants(tx, eventId, [
          { email: 'new@example.org', personal: { legal_first_name: 'New', legal_last_name: 'Person' } },
          { email: 'banned@example.org', personal: { legal_first_name: 'B', legal_last_name: 'Anned' } },
          { email: 'nameless@example.org' },
        ]),
      );
      await expect(refused).rejects.toThrow(
        /banned@example.org\): this email is banned.*nameless@example.org\): personal.legal_first_name/,
      );
      expect(await q('SELECT count(*)::int AS n FROM people')).toEqual([{ n: 1 }]);

      // A new registration starts `invited` (import --invite then sends it: test/cli).
      const invited = await db.transaction((tx) =>
        importParticipants(tx, eventId, [
          { email: 'new@example.org', personal: { legal_first_name: 'New', legal_last_name: 'Person' } },
        ]),
      );
      expect(await q(`SELECT status FROM registrations WHERE id = ${invited.registrationIds[0]}`)).toEqual([
        { status: 'invited' },
      ]);
      await expect(db.transaction((tx) => importParticipants(tx, 999_999, [full()]))).rejects.toThrow(
        'Event not found',
      );
    });
  });

  it('stores phones in E.164 read with the event’s country; a number that is not one is a 422, nothing written', async () => {
    await withFreshDatabase(async (db) => {
      const series = await createSeries(db, { name: 'Phone Import' });
      const event = await createEventRecord(db, {
        seriesId: series.id,
        name: 'Phone Event',
        locationCountry: 'GB',
      });
      const q = async (text: string) => (await db.execute(sql.raw(text))).rows;
      const names = { legal_first_name: 'Ann', legal_last_name: 'Bee' };
      const refused = db.transaction((tx) =>
        importParticipants(tx, event.id, [
          { email: 'ann@example.org', personal: names, phone: '07700 900123' },
          {
            email: 'bo@example.org',
            personal: names,
            guardians: [{ name: 'Pat', email: 'pat@example.org', phone: 'call me' }],
          },
        ]),
      );
      await expect(refused).rejects.toThrow(
        'items[1] (bo@example.org): guardians[0].phone must be a phone number in international format',
      );
      expect(await q('SELECT count(*)::int AS n FROM people')).toEqual([{ n: 0 }]);

      await db.transaction((tx) =>
        importParticipants(tx, event.id, [
          {
            email: 'ann@example.org',
            personal: names,
            phone: '07700 900123',
            guardians: [
              {
                name: 'Pat',
                email: 'pat@example.org',
                phone: '+1 202 555 0143',
                emergency_contacts: [{ name: 'Gran', phone: '020 7946 0958', relationship: 'Gran' }],
              },
            ],
            emergency_contacts: [{ name: 'Uncle', phone: '0044 7700 900456', relationship: 'Uncle' }],
          },
        ]),
      );
      expect(await q('SELECT phone FROM people')).toEqual([{ phone: '+447700900123' }]);
      expect(await q('SELECT phone FROM guardians')).toEqual([{ phone: '+12025550143' }]);
      expect(await q('SELECT phone FROM emergency_contacts ORDER BY phone')).toEqual([
        { phone: '+442079460958' },
        { phone: '+447700900456' },
      ]);
    });
  });
});
