/**
 * Behaviour of the participant, account and series read endpoints (spec "Participants", "Account
 * and credentials", "Series and events"; docs/decisions.md "Credentials and roles"). One app + world for the file.
 *
 * Choices where spec and contract are silent (reported to the lead):
 * - a missing `q` behaves like a blank one (`{results: []}`);
 * - lookup echoes the normalised (trimmed, lower-cased) email;
 * - GET /events `role` for a global admin without explicit roles is `global_admin`;
 * - GET /series lists series where the user holds a series role (event roles alone do not count).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardians, people, scans, travelLegs } from '../../src/db/schema/index.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { createEventRecord, type EventRow } from '../../src/modules/events/records.service.js';
import { get, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World, type WorldRegistration } from '../support/world.js';

const P = '/api/v1';
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
type Json = Record<string, unknown>;
type Participant = Json & { participant_event_id: number; participant_id: number };

let t: TestApp;
let app: FastifyInstance;
let w: World;
let D: EventRow;
let bulk: WorldRegistration[];
let special: Record<
  | 'percent'
  | 'percentControl'
  | 'underscore'
  | 'underscoreControl'
  | 'backslash'
  | 'backslashControl'
  | 'unicode',
  WorldRegistration
>;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  w = await buildWorld(t.deps);
  await t.deps.db.transaction(async (tx) => {
    // A draft sibling with no dates: listed last.
    D = await createEventRecord(tx, { seriesId: w.series.S1.id, name: 'Summit Draft', slug: 'summit-draft' });
    // A person without a registration shifts person ids away from registration ids, so
    // "digits match participant_event_id OR participant_id" is observable.
    await tx
      .insert(people)
      .values({ email: 'orphan@example.org', legalFirstName: 'Orphan', legalLastName: 'Person' });
    const reg = (firstName: string, lastName: string, email: string) =>
      addRegistration(tx, {
        eventId: w.events.A.id,
        email,
        firstName,
        lastName,
        preferredName: null,
        dateOfBirth: null,
        status: 'complete',
        phone: null,
      });
    bulk = [];
    for (const suffix of 'abcdefghijklmnopqrstuvwxy') {
      bulk.push(await reg('Bulky', `Bulkperson${suffix}`, `bulky.${suffix}@example.org`));
    }
    special = {
      percent: await reg('Perry', 'Per%cent', 'perry@example.net'),
      percentControl: await reg('Percy', 'Perxcent', 'percy@example.net'),
      underscore: await reg('Una', 'Under_score', 'una@example.net'),
      underscoreControl: await reg('Uma', 'Underxscore', 'uma@example.net'),
      backslash: await reg('Bea', 'Back\\slash', 'bea@example.net'),
      backslashControl: await reg('Ben', 'Backslash', 'ben@example.net'),
      unicode: await reg('ZOË', 'ÉCLAIR', 'zoe@example.net'),
    };
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const A = () => w.events.A;
const list = async (secret: string, query = '', event: string | number = A().id) => {
  const res = await get(app, `${P}/events/${event}/participants${query}`, secret);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { participants: Participant[]; synced_at: string };
};
const search = async (q: string, secret = w.secrets.admin!) => {
  const res = await get(app, `${P}/events/${A().id}/participants/search?q=${encodeURIComponent(q)}`, secret);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { results: Participant[] }).results;
};
const detail = async (id: number, secret = w.secrets.admin!, event: string | number = A().id) => {
  const res = await get(app, `${P}/events/${event}/participants/${id}`, secret);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { participant: Json }).participant;
};
const ids = (ps: Participant[]) => ps.map((p) => p.participant_event_id).sort((a, b) => a - b);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /events/{e}/participants', () => {
  it('returns {participants, synced_at} with synced_at in ISO 8601 with microseconds', async () => {
    const body = await list(w.secrets.admin!);
    expect(Object.keys(body).sort()).toEqual(['participants', 'synced_at']);
    expect(body.synced_at).toMatch(ISO_MICROS);
    for (const p of body.participants) expect(p.updated_at).toMatch(ISO_MICROS);
  });

  it('includes withdrawn and rejected registrations', async () => {
    const body = await list(w.secrets.ops!);
    const byId = new Map(body.participants.map((p) => [p.participant_event_id, p]));
    expect(byId.get(w.regs.withdrawnA.id)?.status).toBe('withdrawn');
    expect(byId.get(w.regs.rejectedA.id)?.status).toBe('rejected');
    // Every registration of A, none of B or C.
    expect(body.participants).toHaveLength(4 + bulk.length + Object.keys(special).length);
    expect(byId.has(w.regs.regB.id)).toBe(false);
  });

  it('accepts the event by numeric id, UUID and slug with the same result', async () => {
    const [byId, byUuid, bySlug] = await Promise.all([
      list(w.secrets.admin!, '', A().id),
      list(w.secrets.admin!, '', A().uuid),
      list(w.secrets.admin!, '', A().slug),
    ]);
    expect(ids(byUuid.participants)).toEqual(ids(byId.participants));
    expect(ids(bySlug.participants)).toEqual(ids(byId.participants));
  });

  it('updated_since returns exactly the registrations changed after it', async () => {
    const first = await list(w.secrets.admin!);
    const cursor = first.synced_at;
    await sleep(5);
    const touched = bulk[3]!;
    // A guardian's phone (minor), a travel leg (adult), a scan (bulk), the person's name (withdrawn).
    await t.deps.db.update(guardians).set({ phone: '+447700900555' }).where(eq(guardians.id, w.guardianA));
    await t.deps.db
      .update(travelLegs)
      .set({ flightCode: 'TA101' })
      .where(eq(travelLegs.id, w.legs.inboundA1));
    await t.deps.db.insert(scans).values({
      eventId: A().id,
      registrationId: touched.id,
      scanContextId: w.contexts.checkInA,
      scannedAt: new Date().toISOString(),
      outcome: 'scanned',
    });
    await t.deps.db
      .update(people)
      .set({ legalFirstName: 'Wendy' })
      .where(eq(people.id, w.regs.withdrawnA.personId));

    const delta = await list(w.secrets.admin!, `?updated_since=${encodeURIComponent(cursor)}`);
    expect(ids(delta.participants)).toEqual(
      [w.regs.adultA.id, w.regs.minorA.id, w.regs.withdrawnA.id, touched.id].sort((a, b) => a - b),
    );
    const byId = new Map(delta.participants.map((p) => [p.participant_event_id, p]));
    expect(byId.get(w.regs.minorA.id)!.parent_guardian_phone).toBe('+447700900555');
    expect(
      (byId.get(w.regs.adultA.id)!.travel_inbound as { legs: { flight_code: string }[] }).legs[0]!
        .flight_code,
    ).toBe('TA101');
    expect(byId.get(w.regs.withdrawnA.id)!.full_name).toBe('Wendy Withdrawn');
    expect(byId.get(touched.id)!.checked_in_at).not.toBeNull();
    expect(delta.synced_at >= cursor).toBe(true);

    // Nothing changed since the new cursor.
    const again = await list(w.secrets.admin!, `?updated_since=${encodeURIComponent(delta.synced_at)}`);
    expect(again.participants).toEqual([]);
  });

  it('accepts an updated_since with a numeric UTC offset', async () => {
    const body = await list(
      w.secrets.admin!,
      `?updated_since=${encodeURIComponent('2000-01-01T00:00:00+02:00')}`,
    );
    expect(body.participants.length).toBeGreaterThan(0);
  });

  it.each([
    'yesterday',
    '1700000000',
    '2026-07-10 10:00',
    'not-a-date',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
  ])('rejects updated_since=%s with 422 {error}', async (value) => {
    const res = await get(
      app,
      `${P}/events/${A().id}/participants?updated_since=${encodeURIComponent(value)}`,
      w.secrets.admin,
    );
    // A failed SQL statement resets the embedded database's connection (test/http/database.test.ts);
    // this throw-away query absorbs that so one bug does not cascade into the following tests.
    await t.deps.database.pool.query('SELECT 1').catch(() => {});
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  // PostgreSQL only: the embedded database serves one connection, so no write can be in flight there.
  it.skipIf(!process.env.DATABASE_URL)(
    'does not skip a write whose transaction was open when synced_at was fixed',
    async () => {
      const client = new pg.Client({
        connectionString: t.deps.config.databaseUrl,
        options: '-c TimeZone=UTC',
      });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query('UPDATE guardians SET phone = $1 WHERE id = $2', ['+447700900777', w.guardianA]);
        await sleep(5);
        const during = await list(w.secrets.admin!);
        await client.query('COMMIT');
        const after = await list(w.secrets.admin!, `?updated_since=${encodeURIComponent(during.synced_at)}`);
        const minor = after.participants.find((p) => p.participant_event_id === w.regs.minorA.id);
        expect(minor, 'the in-flight write must appear in the next delta').toBeDefined();
        expect(minor!.parent_guardian_phone).toBe('+447700900777');
      } finally {
        await client.end();
      }
    },
  );
});

describe('derived fields (docs/decisions.md "Participants API")', () => {
  it('display_name is the preferred name, else legal first + last; full_name is legal first + last', async () => {
    const adult = await detail(w.regs.adultA.id);
    expect(adult.display_name).toBe('Ali');
    expect(adult.full_name).toBe('Alice Anderson');
    const minor = await detail(w.regs.minorA.id);
    expect(minor.display_name).toBe('Max Minor');
  });

  it('checked_in_at is the earliest scan in a checks_in context (other contexts ignored)', async () => {
    const adult = await detail(w.regs.adultA.id);
    expect(adult.checked_in_at).toBe('2026-07-10T09:00:00.000000Z');
    const minor = await detail(w.regs.minorA.id);
    expect(minor.checked_in_at).toBeNull();
    const contexts = adult.scans_by_context as Json[];
    const checkIn = contexts.find((c) => c.scan_context_id === w.contexts.checkInA)!;
    expect(checkIn).toMatchObject({
      checks_in: true,
      scan_count: 2,
      first_scanned_at: '2026-07-10T09:00:00.000000Z',
      last_scanned_at: '2026-07-10T10:00:00.000000Z',
    });
  });

  it('waiver_signed reflects a signed waiver consent', async () => {
    expect((await detail(w.regs.adultA.id)).waiver_signed).toBe(true);
    expect((await detail(w.regs.minorA.id)).waiver_signed).toBe(false);
    expect((await detail(w.regs.withdrawnA.id)).waiver_signed).toBe(false);
  });

  it('nfc_badge_token is null when the event NFC module is off, the token when on', async () => {
    expect((await detail(w.regs.adultA.id)).nfc_badge_token).toBeNull();
    const bob = await detail(w.regs.regB.id, w.secrets.admin, w.events.B.id);
    expect(bob.nfc_badge_token).toBe('badge-bob');
    expect(bob.nfc_badge_assigned).toBe(true);
  });

  it('deprecated aliases equal their replacements everywhere', async () => {
    const body = await list(w.secrets.admin!);
    let legs = 0;
    let contexts = 0;
    for (const p of body.participants) {
      for (const c of p.scans_by_context as Json[]) {
        contexts++;
        expect(c.is_airport).toBe(c.is_travel_pickup);
      }
      for (const dir of ['travel_inbound', 'travel_outbound']) {
        for (const leg of ((p[dir] as { legs?: Json[] } | undefined)?.legs ?? []) as Json[]) {
          legs++;
          expect(leg.airport_picked_up_at).toBe(leg.travel_picked_up_at);
        }
      }
    }
    expect(contexts).toBeGreaterThan(0);
    expect(legs).toBe(2);
    const adult = body.participants.find((p) => p.participant_event_id === w.regs.adultA.id)!;
    const pickup = (adult.scans_by_context as Json[]).find((c) => c.scan_context_id === w.contexts.pickupA)!;
    expect(pickup).toMatchObject({ is_travel_pickup: true, is_airport: true });
    const leg2 = (adult.travel_inbound as { legs: Json[] }).legs[1]!;
    expect(leg2.travel_picked_up_at).toBe('2026-07-09T15:00:00.000000Z');
  });

  it('travel_inbound/outbound are omitted (not null) without a travel record', async () => {
    const minor = await detail(w.regs.minorA.id);
    expect('travel_inbound' in minor).toBe(false);
    expect('travel_outbound' in minor).toBe(false);
    const adult = await detail(w.regs.adultA.id);
    expect((adult.travel_inbound as Json).mode).toBe('plane');
    expect((adult.travel_outbound as Json).mode).toBe('train');
  });

  it('parent_guardian_* come from the primary guardian and are absent without a guardian', async () => {
    const minor = await detail(w.regs.minorA.id);
    expect(minor).toMatchObject({
      parent_guardian_name: 'Gina Guardian',
      parent_guardian_email: 'gina.guardian@example.com',
    });
    const adult = await detail(w.regs.adultA.id);
    expect('parent_guardian_name' in adult).toBe(false);
  });
});

describe('GET /events/{e}/participants/search', () => {
  it.each(['', '   ', '\t'])('a blank term (%j) returns no results', async (q) => {
    expect(await search(q)).toEqual([]);
  });

  it('a missing q returns no results', async () => {
    const res = await get(app, `${P}/events/${A().id}/participants/search`, w.secrets.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ results: [] });
  });

  it('is trimmed and case-insensitive on legal, preferred and full names and email', async () => {
    expect(ids(await search('  ALICE  '))).toEqual([w.regs.adultA.id]);
    expect(ids(await search('ali'))).toEqual([w.regs.adultA.id]);
    expect(ids(await search('alice anderson'))).toEqual([w.regs.adultA.id]);
    expect(ids(await search('ANDERSON@EXAMPLE'))).toEqual([w.regs.adultA.id]);
    expect(ids(await search('mInOr'))).toEqual([w.regs.minorA.id]);
  });

  it('is case-insensitive beyond ASCII', async () => {
    expect(ids(await search('éclair'))).toEqual([special.unicode.id]);
    expect(ids(await search('zoë'))).toEqual([special.unicode.id]);
  });

  it('never returns registrations of another event', async () => {
    expect(await search('bob')).toEqual([]);
    expect(await search('carol')).toEqual([]);
  });

  it('an all-digit term matches participant_event_id or participant_id exactly', async () => {
    const target = bulk[5]!;
    expect(target.personId).not.toBe(target.id); // the orphan person shifted the ids
    const all = [...Object.values(w.regs), ...bulk, ...Object.values(special)].filter(
      (r) => r.eventId === A().id,
    );
    const expected = all.filter((r) => r.id === target.id || r.personId === target.id).map((r) => r.id);
    expect(expected.length).toBe(2);
    expect(ids(await search(String(target.id)))).toEqual(expected.sort((a, b) => a - b));
    // No partial id matches: a prefix of an id that is no registration's nor person's id.
    expect(await search('99999')).toEqual([]);
  });

  it.each([
    ['%', 'percent'],
    ['r%c', 'percent'],
    ['_', 'underscore'],
    ['r_s', 'underscore'],
    ['\\', 'backslash'],
    ['k\\s', 'backslash'],
  ] as const)('treats %j literally', async (q, who) => {
    expect(ids(await search(q))).toEqual([special[who].id]);
  });

  it('returns at most 20 matches', async () => {
    const results = await search('bulky');
    expect(results).toHaveLength(20);
    expect(new Set(ids(results)).size).toBe(20);
  });

  it('accepts 200 characters and rejects 201 with 422 {error}', async () => {
    expect(await search('x'.repeat(200))).toEqual([]);
    const res = await get(
      app,
      `${P}/events/${A().id}/participants/search?q=${'x'.repeat(201)}`,
      w.secrets.admin,
    );
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json())).toEqual(['error']);
  });
});

describe('GET /events/{e}/participants/{id}', () => {
  it('is 404 {error} for a registration of another event', async () => {
    for (const [event, id] of [
      [A().id, w.regs.regB.id],
      [A().slug, w.regs.regC.id],
      [w.events.B.id, w.regs.adultA.id],
    ] as const) {
      const res = await get(app, `${P}/events/${event}/participants/${id}`, w.secrets.admin);
      expect(res.statusCode, `${event}/${id}`).toBe(404);
      expect(Object.keys(res.json())).toEqual(['error']);
    }
  });

  it('is 404 for an unknown registration id', async () => {
    const res = await get(app, `${P}/events/${A().id}/participants/999999`, w.secrets.admin);
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  it('carries every detail section with its values', async () => {
    const p = await detail(w.regs.adultA.id);
    expect(p.personal).toEqual({
      legal_first_name: 'Alice',
      legal_last_name: 'Anderson',
      preferred_name: 'Ali',
      date_of_birth: '1990-04-01',
      age: 36,
      tshirt_size: 'M',
      engagement_preference: 'high',
      engagement_notes: 'Keen',
      address: { line_1: '1 High Street', city: 'London', postal_code: 'N1 1AA', country: 'GB' },
    });
    expect(p.accessibility).toEqual({ wheelchair: true, notes: 'Needs ramp' });
    expect(p.medical_detail).toEqual({
      allergy_severity: 'severe',
      emergency_action_plan: 'EpiPen then 999',
      additional_notes: 'Carries two pens',
    });
    expect((p.consents as Json[]).map((c) => [c.consent_type, c.status])).toEqual(
      expect.arrayContaining([
        ['waiver', 'signed'],
        ['code_of_conduct', 'pending'],
      ]),
    );
    expect((p.travel_inbound as { legs: Json[] }).legs.map((l) => l.position)).toEqual([1, 2]);
  });
});

describe('GET /events/{e}/participants/lookup and /roster', () => {
  const lookup = (email: string | undefined, secret = w.secrets.eventKeyA) =>
    get(
      app,
      `${P}/events/${A().id}/participants/lookup${email === undefined ? '' : `?email=${encodeURIComponent(email)}`}`,
      secret,
    );

  it('finds a registered email (trimmed, case-insensitive)', async () => {
    const res = await lookup('  Alice.Anderson@EXAMPLE.com ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      email: 'alice.anderson@example.com',
      registered: true,
      participant_id: w.regs.adultA.personId,
      status: 'complete',
    });
  });

  it('reports an unregistered email, and an email registered only in another event, as not registered', async () => {
    for (const email of ['nobody@example.com', w.regs.regB.email]) {
      const res = await lookup(email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ email, registered: false, participant_id: null, status: null });
    }
  });

  it.each([[''], ['   '], [undefined]])('a blank email (%j) is 422 {error}', async (email) => {
    const res = await lookup(email);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  it('the roster excludes withdrawn and rejected registrations', async () => {
    const res = await get(app, `${P}/events/${A().id}/participants/roster`, w.secrets.seriesKeyS1);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { participants: Json[]; synced_at: string };
    expect(body.synced_at).toMatch(ISO_MICROS);
    const emails = body.participants.map((p) => p.email);
    expect(emails).toContain(w.regs.adultA.email);
    expect(emails).toContain(w.regs.minorA.email);
    expect(emails).not.toContain(w.regs.withdrawnA.email);
    expect(emails).not.toContain(w.regs.rejectedA.email);
    expect(body.participants).toHaveLength(2 + bulk.length + Object.keys(special).length);
    expect(body.participants.find((p) => p.email === w.regs.adultA.email)).toEqual({
      email: w.regs.adultA.email,
      first_name: 'Alice',
      last_name: 'Anderson',
      chat_user_id: 'UALICE',
      slack_user_id: 'UALICE',
      status: 'complete',
    });
  });
});

describe('GET /me', () => {
  it.each([
    ['participant', false, false, true],
    ['ops', false, true, false],
    ['seriesOrganizer', false, true, false],
    ['admin', true, true, false],
    ['globalToken', true, true, false],
  ] as const)(
    '%s → global_admin %s, is_organizer %s, is_participant %s',
    async (who, admin, organizer, participant) => {
      const res = await get(app, `${P}/me`, w.secrets[who]);
      expect(res.statusCode).toBe(200);
      const user = who === 'globalToken' ? w.users.admin : w.users[who];
      expect(res.json()).toEqual({
        id: user.id,
        email: user.email,
        name: user.name,
        global_admin: admin,
        is_organizer: organizer,
        is_participant: participant,
      });
    },
  );
});

describe('GET /events', () => {
  const ENTRY_KEYS = [
    'id',
    'name',
    'slug',
    'starts_at',
    'ends_at',
    'timezone',
    'location_city',
    'logo_url',
    'banner_url',
    'role',
    'series_role',
    'can_view_participants',
    'can_view_participant_pii',
    'can_view_sensitive_data',
    'travel_enabled',
  ].sort();
  const events = async (who: keyof World['secrets']) => {
    const res = await get(app, `${P}/events`, w.secrets[who]);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { events: Json[] };
    expect(Object.keys(body)).toEqual(['events']);
    for (const e of body.events) expect(Object.keys(e).sort()).toEqual(ENTRY_KEYS);
    return body.events;
  };

  it('a global admin gets every event, ordered by start date (no date last)', async () => {
    const list = await events('admin');
    expect(list.map((e) => e.id)).toEqual([w.events.B.id, A().id, w.events.C.id, D.id]);
    expect(list.every((e) => e.role === 'global_admin' && e.can_view_sensitive_data === true)).toBe(true);
  });

  it('a series owner gets the events of the series', async () => {
    const list = await events('seriesOwner');
    expect(list.map((e) => e.id)).toEqual([w.events.B.id, A().id, D.id]);
  });

  it('a participant-only user gets no events', async () => {
    expect(await events('participant')).toEqual([]);
  });

  it.each([
    ['readOnly', 'read_only', null, false, false, false],
    ['limited', 'limited', null, true, false, false],
    ['ops', 'ops', null, true, true, false],
    ['eventAdmin', 'event_admin', null, true, true, false],
    ['safeguarding', 'safeguarding_lead', null, true, true, true],
    ['seriesOwner', 'series_member', 'owner', true, true, false],
    ['seriesOrganizer', 'series_member', 'organizer', true, true, false],
    ['admin', 'global_admin', null, true, true, true],
  ] as const)(
    '%s on A: role %s, series_role %s, participants %s, pii %s, sensitive %s',
    async (who, role, series_role, participants, pii, sensitive) => {
      const entry = (await events(who)).find((e) => e.id === A().id)!;
      expect(entry).toMatchObject({
        id: A().id,
        name: 'Summit Alpha',
        slug: 'summit-alpha',
        starts_at: '2026-07-10T08:00:00.000000Z',
        timezone: 'Europe/London',
        location_city: 'London',
        role,
        series_role,
        can_view_participants: participants,
        can_view_participant_pii: pii,
        can_view_sensitive_data: sensitive,
        travel_enabled: true,
      });
    },
  );

  it('travel_enabled follows the event module', async () => {
    const entry = (await events('seriesOwner')).find((e) => e.id === w.events.B.id)!;
    expect(entry.travel_enabled).toBe(false);
  });
});

describe('series endpoints', () => {
  const SUMMARY_KEYS = [
    'id',
    'slug',
    'name',
    'series',
    'support_email',
    'timezone',
    'starts_at',
    'ends_at',
    'registration_open_at',
    'registration_close_at',
    'venue_name',
    'location_city',
    'location_country',
    'location_address',
    'location_latitude',
    'location_longitude',
    'setup_complete',
    'created_at',
    'updated_at',
  ].sort();

  it('GET /series/{s}/events lists summaries earliest start first, no start last', async () => {
    for (const [segment, secret] of [
      [w.series.S1.id, w.secrets.seriesOwner],
      [w.series.S1.slug, w.secrets.admin],
      ['current', w.secrets.seriesKeyS1],
    ] as const) {
      const res = await get(app, `${P}/series/${segment}/events`, secret);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { events: Json[] };
      expect(body.events.map((e) => e.id)).toEqual([w.events.B.uuid, A().uuid, D.uuid]);
      for (const e of body.events) {
        expect(Object.keys(e).sort()).toEqual(SUMMARY_KEYS);
        expect(e.series).toEqual({ id: w.series.S1.id, slug: w.series.S1.slug, name: w.series.S1.name });
      }
      expect(body.events[2]!.starts_at).toBeNull();
    }
  });

  it('GET /series lists member series (admin: all; series key: its own)', async () => {
    const names = async (secret: string | undefined) => {
      const res = await get(app, `${P}/series`, secret);
      expect(res.statusCode).toBe(200);
      return ((res.json() as { series: Json[] }).series.map((s) => s.id) as string[]).sort();
    };
    expect(await names(w.secrets.admin)).toEqual([w.series.S1.id, w.series.S2.id].sort());
    expect(await names(w.secrets.seriesOwner)).toEqual([w.series.S1.id]);
    expect(await names(w.secrets.seriesKeyS1)).toEqual([w.series.S1.id]);
    expect(await names(w.secrets.seriesKeyS2)).toEqual([w.series.S2.id]);
    expect(await names(w.secrets.participant)).toEqual([]);
  });

  it('GET /series/current is the calling key’s series', async () => {
    const res = await get(app, `${P}/series/current`, w.secrets.seriesKeyS2);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { series: Json }).series).toMatchObject({
      id: w.series.S2.id,
      slug: 'foreign-series',
      name: 'Foreign Series',
    });
  });
});

describe('X-Token-Refresh-Recommended', () => {
  const HEADER = 'x-token-refresh-recommended';
  let shortLived: string;

  beforeAll(async () => {
    shortLived = (await issueMobileToken(t.deps.db, w.users.ops.id, { ttlMs: 2 * 24 * 60 * 60 * 1000 }))
      .secret;
  });

  it('is "true" when the mobile token has less than 3 days left', async () => {
    const res = await get(app, `${P}/me`, shortLived);
    expect(res.statusCode).toBe(200);
    expect(res.headers[HEADER]).toBe('true');
  });

  it('is sent on any response of such a token, denials included', async () => {
    const res = await get(app, `${P}/events/${w.events.C.id}/participants`, shortLived);
    expect(res.statusCode).toBe(403);
    expect(res.headers[HEADER]).toBe('true');
  });

  it('is absent for a fresh token and for API keys', async () => {
    expect((await get(app, `${P}/me`, w.secrets.ops)).headers[HEADER]).toBeUndefined();
    expect((await get(app, `${P}/me`, w.secrets.globalToken)).headers[HEADER]).toBeUndefined();
    expect((await get(app, `${P}/series`, w.secrets.seriesKeyS1)).headers[HEADER]).toBeUndefined();
  });
});
