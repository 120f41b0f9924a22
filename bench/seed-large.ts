/**
 * Large deterministic seed for the benchmarks (quality.md "Performance"): one series, one event (NFC
 * module on) with 3 scan contexts, a global admin with a mobile token, and registrations numbered
 * 1..N with every section populated, consents, guardians (~30%) with their contacts, own emergency
 * contacts, inbound + outbound travel with 1–2 legs each, and 3 scans per registration.
 *
 * Set-based: each table is filled by one `INSERT … SELECT … FROM generate_series(…)` per batch, so
 * 20,000 registrations take seconds on PostgreSQL. Every value is derived from the row number `n`
 * (no randomness), so two seeds of the same size hold the same data (except serial ids of setup rows
 * and the secret of the admin's mobile token). Growing is incremental: `growTo(…, 20_000)` after a
 * 2,000 seed adds rows 2,001..20,000.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../src/db/client.js';
import { scanContexts } from '../src/db/schema/index.js';
import { createUser } from '../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../src/modules/credentials/issue.service.js';
import { createEventRecord, createSeries } from '../src/modules/events/records.service.js';

export const BENCH_EVENT_SLUG = 'bench-large';
export const BENCH_ADMIN_EMAIL = 'bench-admin@muster.test';

export interface BenchEvent {
  eventId: number;
  eventUuid: string;
  slug: string;
  adminUserId: number;
  /** Secret of the admin's mobile token (shown once; only its digest is stored). */
  adminToken: string;
  scanContextIds: number[];
}

export const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Chloe',
  'David',
  'Emma',
  'Farid',
  'Grace',
  'Hannah',
  'Ivan',
  'Joanne',
  'Kenji',
  'Lena',
  'Marta',
  'Noah',
  'Olga',
  'Pedro',
  'Quinn',
  'Rosa',
  'Sami',
  'Tomasz',
  'Uma',
  'Viktor',
  'Wen',
  'Xavier',
  'Yara',
  'Zoe',
  'Aoife',
  'Bjorn',
  'Carmen',
  'Dmitri',
  'Elif',
] as const;
export const LAST_NAMES = [
  'Adams',
  'Baker',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Larsen',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Quispe',
  'Rossi',
  'Silva',
  'Tanaka',
  'Usman',
  'Vargas',
  'Weber',
  'Xu',
  'Yilmaz',
  'Zhang',
  'Murphy',
  'Novak',
  'Oliveira',
  'Park',
  'Santos',
  'Khan',
  'Lopez',
  'Meyer',
  'Nielsen',
  'Schmidt',
  'Brown',
  'Costa',
  'Horvat',
] as const;

/** Email of registration `n` (used by the search scenario). */
export const benchEmail = (n: number) => `participant${n}@bench.muster.test`;

const arr = (values: readonly string[]) =>
  `(ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}])`;
/** SQL expression picking values[(expr) mod len] (1-based arrays). */
const pick = (values: readonly string[], expr: string) =>
  `${arr(values)}[((${expr}) % ${values.length}) + 1]`;

const FIRST = (n: string) => pick(FIRST_NAMES, n);
const LAST = (n: string) => pick(LAST_NAMES, `(${n}) / ${FIRST_NAMES.length}`);

/** Creates the series, event, scan contexts, admin user and token (idempotent on the event slug). */
export async function setupBenchEvent(db: Db): Promise<BenchEvent> {
  return db.transaction(async (tx) => {
    const existing = await tx.execute<{ id: number; uuid: string }>(
      sql`SELECT id, uuid FROM events WHERE slug = ${BENCH_EVENT_SLUG}`,
    );
    let eventId: number;
    let eventUuid: string;
    let adminUserId: number;
    if (existing.rows[0]) {
      eventId = existing.rows[0].id;
      eventUuid = existing.rows[0].uuid;
      const u = await tx.execute<{ id: number }>(
        sql`SELECT id FROM users WHERE email = ${BENCH_ADMIN_EMAIL}`,
      );
      adminUserId = u.rows[0]!.id;
    } else {
      const s = await createSeries(tx, { name: 'Bench Series', slug: 'bench-series' });
      const event = await createEventRecord(tx, {
        seriesId: s.id,
        name: 'Bench Large Event',
        slug: BENCH_EVENT_SLUG,
        timezone: 'Europe/London',
        startsAt: '2026-07-10 08:00:00+00',
        endsAt: '2026-07-14 18:00:00+00',
        setupComplete: true,
        modules: { nfc_badges_enabled: true },
      });
      eventId = event.id;
      eventUuid = event.uuid;
      await tx.insert(scanContexts).values([
        { eventId, name: 'Airport pickup', isTravelPickup: true, position: 1 },
        { eventId, name: 'Welcome dinner', position: 2 },
      ]);
      const admin = await createUser(tx, {
        email: BENCH_ADMIN_EMAIL,
        name: 'Bench Admin',
        globalAdmin: true,
      });
      adminUserId = admin.id;
    }
    const token = await issueMobileToken(tx, adminUserId, { deviceName: 'bench' });
    const contexts = await tx.execute<{ id: number }>(
      sql`SELECT id FROM scan_contexts WHERE event_id = ${eventId} ORDER BY position, id`,
    );
    return {
      eventId,
      eventUuid,
      slug: BENCH_EVENT_SLUG,
      adminUserId,
      adminToken: token.secret,
      scanContextIds: contexts.rows.map((r) => r.id),
    };
  });
}

export async function countRegistrations(db: Db, eventId: number): Promise<number> {
  const res = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM registrations WHERE event_id = ${eventId}`,
  );
  return res.rows[0]!.n;
}

/**
 * Adds registrations until the event has `target` (numbered count+1..target), in transactions of
 * `batchSize`, then VACUUM ANALYZE. Returns the seconds spent.
 */
export async function growTo(
  db: Db,
  ev: BenchEvent,
  target: number,
  opts: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<{ added: number; seconds: number }> {
  const started = performance.now();
  const current = await countRegistrations(db, ev.eventId);
  const batch = opts.batchSize ?? 20_000;
  for (let from = current + 1; from <= target; from += batch) {
    const to = Math.min(target, from + batch - 1);
    await db.transaction((tx) => insertRange(tx, ev, from, to));
    opts.onBatch?.(to);
  }
  if (target > current) await db.execute(sql`VACUUM ANALYZE`);
  return { added: Math.max(0, target - current), seconds: (performance.now() - started) / 1000 };
}

/** Registrations n = from..to with everything attached, in the caller's transaction. */
async function insertRange(tx: Tx, ev: BenchEvent, from: number, to: number): Promise<void> {
  // Superusers (local PostgreSQL, PGlite) skip per-row triggers and FK checks while bulk loading:
  // the data is consistent by construction, and the triggers would only re-touch updated_at.
  const su = await tx.execute<{ su: boolean }>(
    sql`SELECT rolsuper AS su FROM pg_roles WHERE rolname = current_user`,
  );
  if (su.rows[0]?.su) await tx.execute(sql`SET LOCAL session_replication_role = replica`);

  const [ctxCheckIn, ctxPickup, ctxDinner] = ev.scanContextIds as [number, number, number];
  const run = (text: string) => tx.execute(sql.raw(text));

  await run(
    `CREATE TEMP TABLE bench_map (n int PRIMARY KEY, person_id int NOT NULL, registration_id int NOT NULL) ON COMMIT DROP`,
  );
  await run(`INSERT INTO bench_map
    SELECT n, nextval(pg_get_serial_sequence('people', 'id')), nextval(pg_get_serial_sequence('registrations', 'id'))
      FROM generate_series(${from}, ${to}) n`);

  await run(`INSERT INTO people (id, email, legal_first_name, legal_last_name, preferred_name, pronouns, phone,
      date_of_birth, headshot_url, chat_user_id, address)
    SELECT m.person_id, 'participant' || m.n || '@bench.muster.test', ${FIRST('m.n')}, ${LAST('m.n')},
      CASE WHEN m.n % 5 = 0 THEN ${pick(['Annie', 'Benny', 'Chlo', 'Dave', 'Em', 'Fari', 'Gracie'], 'm.n / 5')} END,
      ${pick(['she/her', 'he/him', 'they/them'], 'm.n')},
      '+44 7700 ' || lpad((m.n % 1000000)::text, 6, '0'),
      date '1990-01-01' + ((m.n * 37) % 9000),
      'https://img.bench.muster.test/headshots/' || m.n || '.jpg',
      'U' || lpad(m.n::text, 9, '0'),
      jsonb_build_object('line_1', m.n || ' High Street', 'line_2', 'Flat ' || (m.n % 40 + 1),
        'city', ${pick(['London', 'Leeds', 'Bristol', 'Glasgow', 'Cardiff', 'Belfast'], 'm.n')},
        'postal_code', 'BN' || (m.n % 90 + 1) || ' ' || (m.n % 9) || 'AB', 'country', 'GB')
      FROM bench_map m`);

  await run(`INSERT INTO registrations (id, event_id, person_id, status, tshirt_size, engagement_preference,
      engagement_notes, freedom_waiver_granted, nfc_badge_token, nfc_badge_assigned_at, submitted_at, completed_at,
      withdrawn_at, created_at, updated_at)
    SELECT m.registration_id, ${ev.eventId}, m.person_id,
      CASE WHEN m.n % 40 = 0 THEN 'withdrawn' WHEN m.n % 97 = 0 THEN 'rejected'
           WHEN m.n % 13 = 0 THEN 'awaiting_guardian' WHEN m.n % 11 = 0 THEN 'in_progress' ELSE 'complete' END,
      ${pick(['XS', 'S', 'M', 'L', 'XL', 'XXL'], 'm.n')},
      ${pick(['in_person', 'remote', 'flexible'], 'm.n')},
      'Engagement notes for participant ' || m.n,
      m.n % 2 = 0,
      CASE WHEN m.n % 3 <> 0 THEN 'nfc-' || md5('badge' || m.n) END,
      CASE WHEN m.n % 3 <> 0 THEN timestamptz '2026-07-10 07:00:00+00' + m.n * interval '1 second' END,
      timestamptz '2026-03-01 00:00:00+00' + m.n * interval '1 minute',
      CASE WHEN m.n % 11 <> 0 AND m.n % 13 <> 0 THEN timestamptz '2026-03-02 00:00:00+00' + m.n * interval '1 minute' END,
      CASE WHEN m.n % 40 = 0 THEN timestamptz '2026-05-01 00:00:00+00' + m.n * interval '1 minute' END,
      timestamptz '2026-01-01 00:00:00+00' + m.n * interval '1 minute',
      timestamptz '2026-01-01 00:00:00+00' + m.n * interval '1 minute' + interval '30 days'
      FROM bench_map m`);

  await run(`INSERT INTO registration_accommodations (registration_id, check_in_date, check_out_date, gender_identity,
      gender_identity_other, assigned_room, rooming_exempt, venue_name, preferred_roommate_genders, roommate_preferences,
      roommate_exclusions, quiet_room_preference, room_type_preference, accessibility_needs, notes)
    SELECT m.registration_id, date '2026-07-09' + (m.n % 2), date '2026-07-14' + (m.n % 2),
      ${pick(['woman', 'man', 'non_binary', 'other'], 'm.n')}, CASE WHEN m.n % 4 = 3 THEN 'Genderfluid' END,
      'Room ' || (100 + m.n / 2), m.n % 29 = 0, 'Bench Conference Hotel',
      ${pick(['same', 'any', 'women', 'men'], 'm.n')}, 'Would like to room with participant ' || (m.n + 1),
      CASE WHEN m.n % 7 = 0 THEN 'Not with participant ' || (m.n + 3) END,
      ${pick(['quiet', 'no_preference', 'social'], 'm.n')}, ${pick(['twin', 'double', 'single'], 'm.n')},
      CASE WHEN m.n % 9 = 0 THEN 'Ground floor room' END, 'Arrives late on the first evening'
      FROM bench_map m`);

  await run(`INSERT INTO registration_medical (registration_id, allergies, medical_conditions, medications,
      life_threatening_allergies, allergy_severity, emergency_action_plan, additional_notes, has_anaphylaxis_risk,
      requires_refrigeration)
    SELECT m.registration_id, ${pick(['None', 'Peanuts', 'Pollen', 'Penicillin', 'Shellfish', 'Dust'], 'm.n')},
      ${pick(['None', 'Asthma', 'Type 1 diabetes', 'Epilepsy', 'Migraine'], 'm.n / 3')},
      ${pick(['None', 'Inhaler', 'Insulin', 'Antihistamines'], 'm.n / 2')},
      CASE WHEN m.n % 17 = 0 THEN 'Peanuts' END, ${pick(['mild', 'moderate', 'severe'], 'm.n')},
      CASE WHEN m.n % 17 = 0 THEN 'Administer EpiPen, call 999' END, 'Medical notes for ' || m.n,
      m.n % 17 = 0, m.n % 23 = 0
      FROM bench_map m`);

  await run(`INSERT INTO registration_dietary (registration_id, diet_type, intolerances, notes, cross_contamination_risk)
    SELECT m.registration_id, ${pick(['omnivore', 'vegetarian', 'vegan', 'pescatarian', 'halal', 'kosher'], 'm.n')},
      ${pick(['None', 'Lactose', 'Gluten', 'Fructose'], 'm.n / 2')}, 'Dietary notes for ' || m.n, m.n % 19 = 0
      FROM bench_map m`);

  await run(`INSERT INTO registration_accessibility (registration_id, data)
    SELECT m.registration_id, jsonb_build_object('mobility', ${pick(['none', 'wheelchair', 'stick'], 'm.n')},
      'hearing', m.n % 31 = 0, 'visual', m.n % 37 = 0, 'notes', 'Accessibility notes for ' || m.n)
      FROM bench_map m`);

  await run(`INSERT INTO registration_safeguarding (registration_id, high_support_notes, authorized_pickup_adults,
      other_instructions, curfew_acknowledged, overnight_rules_acknowledged, high_support_flag, can_leave_unaccompanied)
    SELECT m.registration_id, CASE WHEN m.n % 21 = 0 THEN 'Needs a quiet space at meals' END,
      'Guardian or named adult ' || m.n, 'Instructions for ' || m.n, true, m.n % 8 <> 0, m.n % 21 = 0, m.n % 3 = 0
      FROM bench_map m`);

  await run(`INSERT INTO consents (registration_id, consent_type, status, pending_on, sent_at, viewed_at,
      participant_signed_at, guardian_signed_at, signed_at, document_url, signature_name, signature_ip, esign_submission_id)
    SELECT m.registration_id, c.type, 'signed', NULL,
      timestamptz '2026-04-01 00:00:00+00' + m.n * interval '1 minute',
      timestamptz '2026-04-01 01:00:00+00' + m.n * interval '1 minute',
      timestamptz '2026-04-01 02:00:00+00' + m.n * interval '1 minute',
      CASE WHEN m.n % 10 < 3 THEN timestamptz '2026-04-01 03:00:00+00' + m.n * interval '1 minute' END,
      timestamptz '2026-04-01 03:00:00+00' + m.n * interval '1 minute',
      'https://esign.bench.muster.test/documents/' || c.type || '/' || m.n || '.pdf',
      ${FIRST('m.n')} || ' ' || ${LAST('m.n')}, '192.0.2.' || (m.n % 250 + 1), 'sub_' || c.type || '_' || m.n
      FROM bench_map m CROSS JOIN (VALUES ('waiver'), ('code_of_conduct'), ('freedom_waiver')) c(type)
     WHERE c.type <> 'freedom_waiver' OR m.n % 2 = 0`);

  // ~30% are minors with one (primary) guardian, who brings two emergency contacts.
  await run(`INSERT INTO guardians (registration_id, name, email, phone, relationship, is_primary, status, accepted_at,
      completed_at, invite_token_sent_at, invited_via_email, media_permission, photo_permission, travel_permission,
      emergency_medical_consent, otc_medication_consent)
    SELECT m.registration_id, ${FIRST('m.n + 7')} || ' ' || ${LAST('m.n')}, 'guardian' || m.n || '@bench.muster.test',
      '+44 7900 ' || lpad((m.n % 1000000)::text, 6, '0'), ${pick(['mother', 'father', 'guardian'], 'm.n')}, true,
      'completed', timestamptz '2026-04-02 00:00:00+00' + m.n * interval '1 minute',
      timestamptz '2026-04-03 00:00:00+00' + m.n * interval '1 minute',
      timestamptz '2026-04-01 12:00:00+00' + m.n * interval '1 minute', 'guardian' || m.n || '@bench.muster.test',
      'yes', ${pick(['yes', 'no'], 'm.n')}, 'yes', 'yes', ${pick(['yes', 'no'], 'm.n / 2')}
      FROM bench_map m WHERE m.n % 10 < 3`);

  await run(`INSERT INTO emergency_contacts (registration_id, guardian_id, name, phone, email, relationship, priority)
    SELECT g.registration_id, g.id, ${FIRST('m.n + 11 * k')} || ' ' || ${LAST('m.n + k')},
      '+44 7800 ' || lpad(((m.n * 2 + k) % 1000000)::text, 6, '0'), 'contact' || m.n || '-' || k || '@bench.muster.test',
      ${pick(['aunt', 'uncle', 'grandparent', 'neighbour'], 'm.n + k')}, k
      FROM bench_map m JOIN guardians g ON g.registration_id = m.registration_id CROSS JOIN generate_series(1, 2) k`);

  // Everyone has their own contacts too: one, or two for even n (priorities after the guardian's).
  await run(`INSERT INTO emergency_contacts (registration_id, guardian_id, name, phone, email, relationship, priority)
    SELECT m.registration_id, NULL, ${FIRST('m.n + 5 * k')} || ' ' || ${LAST('m.n + 2 * k')},
      '+44 7600 ' || lpad(((m.n * 2 + k) % 1000000)::text, 6, '0'), 'own' || m.n || '-' || k || '@bench.muster.test',
      ${pick(['partner', 'parent', 'sibling', 'friend'], 'm.n + k')}, 2 + k
      FROM bench_map m CROSS JOIN generate_series(1, 2) k WHERE k = 1 OR m.n % 2 = 0`);

  await run(`INSERT INTO travels (registration_id, direction, mode, visa_required, visa_status, visa_type, visa_number,
      passport_nationality, is_unaccompanied_minor, carrier, flight_number, train_departure_station, train_arrival_station,
      departure_station, arrival_station, departure_city, arrival_city, departure_time, arrival_time, expected_arrival_time,
      bus_departure_location, bus_arrival_location, origin_address, other_details, notes, pickup_dismissed_at)
    SELECT m.registration_id, d.dir, CASE WHEN d.dir = 'outbound' AND m.n % 3 = 0 THEN 'train' ELSE 'plane' END,
      m.n % 6 = 0, CASE WHEN m.n % 6 = 0 THEN 'approved' END, CASE WHEN m.n % 6 = 0 THEN 'visitor' END,
      CASE WHEN m.n % 6 = 0 THEN 'V' || lpad(m.n::text, 8, '0') END, ${pick(['GB', 'IE', 'FR', 'DE', 'PL', 'US', 'IN'], 'm.n')},
      m.n % 10 = 0, ${pick(['BA', 'EI', 'AF', 'LH', 'LO', 'UA'], 'm.n')},
      ${pick(['BA', 'EI', 'AF', 'LH', 'LO', 'UA'], 'm.n')} || (100 + m.n % 900),
      CASE WHEN m.n % 3 = 0 THEN 'London Kings Cross' END, CASE WHEN m.n % 3 = 0 THEN 'Edinburgh Waverley' END,
      ${pick(['LHR', 'DUB', 'CDG', 'FRA', 'WAW', 'JFK'], 'm.n')}, 'EDI',
      ${pick(['London', 'Dublin', 'Paris', 'Frankfurt', 'Warsaw', 'New York'], 'm.n')}, 'Edinburgh',
      timestamptz '2026-07-09 06:00:00+00' + (m.n % 600) * interval '1 minute' + CASE WHEN d.dir = 'outbound' THEN interval '5 days' ELSE interval '0' END,
      timestamptz '2026-07-09 09:00:00+00' + (m.n % 600) * interval '1 minute' + CASE WHEN d.dir = 'outbound' THEN interval '5 days' ELSE interval '0' END,
      timestamptz '2026-07-09 09:15:00+00' + (m.n % 600) * interval '1 minute' + CASE WHEN d.dir = 'outbound' THEN interval '5 days' ELSE interval '0' END,
      'Coach bay ' || (m.n % 12 + 1), 'Venue entrance', m.n || ' High Street, London', 'Travel details ' || m.n,
      'Travel notes ' || m.n, CASE WHEN m.n % 50 = 0 THEN timestamptz '2026-07-09 12:00:00+00' END
      FROM bench_map m CROSS JOIN (VALUES ('inbound'), ('outbound')) d(dir)`);

  await run(`INSERT INTO travel_legs (travel_id, position, flight_code, departure_airport, arrival_airport, departure_time,
      arrival_time, live_status, live_departure_time, live_arrival_time, travel_picked_up_at)
    SELECT t.id, k, 'BX' || (m.n % 900 + 100) || k, CASE WHEN k = 1 THEN t.departure_station ELSE 'AMS' END,
      CASE WHEN k = 1 AND m.n % 2 = 1 THEN 'EDI' WHEN k = 1 THEN 'AMS' ELSE 'EDI' END,
      t.departure_time + (k - 1) * interval '2 hours', t.departure_time + k * interval '1 hour 30 minutes',
      ${pick(['scheduled', 'landed', 'delayed'], 'm.n + k')}, t.departure_time + (k - 1) * interval '2 hours',
      t.departure_time + k * interval '1 hour 35 minutes',
      CASE WHEN t.direction = 'inbound' AND m.n % 4 = 0 THEN t.arrival_time + interval '20 minutes' END
      FROM bench_map m JOIN travels t ON t.registration_id = m.registration_id
      CROSS JOIN generate_series(1, 2) k WHERE k = 1 OR m.n % 2 = 0`);

  // 3 scans each: check-in, airport pickup and dinner.
  await run(`INSERT INTO scans (event_id, registration_id, scan_context_id, scanner_user_id, source, client_scan_id,
      outcome, scanned_at, created_at)
    SELECT ${ev.eventId}, m.registration_id, c.ctx, ${ev.adminUserId}, ${pick(['qr', 'nfc', 'manual'], 'm.n + c.k')},
      'bench-' || m.n || '-' || c.k, 'scanned',
      timestamptz '2026-07-09 10:00:00+00' + c.k * interval '1 day' + (m.n % 3600) * interval '1 second',
      timestamptz '2026-07-09 10:00:01+00' + c.k * interval '1 day' + (m.n % 3600) * interval '1 second'
      FROM bench_map m CROSS JOIN (VALUES (0, ${ctxCheckIn}), (1, ${ctxPickup}), (2, ${ctxDinner})) c(k, ctx)`);
  // What the scans trigger keeps (skipped above): the first check-in, the scan at the check-in context.
  await run(`UPDATE registrations r SET first_checked_in_at = s.scanned_at
      FROM bench_map m JOIN scans s ON s.registration_id = m.registration_id AND s.scan_context_id = ${ctxCheckIn}
     WHERE r.id = m.registration_id`);
}

/** Convenience for one-off use: set up the event and grow it to `n` registrations. */
export async function seedLarge(db: Db, n: number, opts: { batchSize?: number } = {}): Promise<BenchEvent> {
  const ev = await setupBenchEvent(db);
  await growTo(db, ev, n, opts);
  return ev;
}

/** Removes everything a previous bench seed left (for a user-supplied BENCH_DATABASE_URL). */
export async function resetBench(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM events WHERE slug = ${BENCH_EVENT_SLUG}`);
    await tx.execute(sql`DELETE FROM series WHERE slug = 'bench-series'`);
    await tx.execute(sql`DELETE FROM people WHERE lower(email) LIKE '%@bench.muster.test'`);
    await tx.execute(sql`DELETE FROM users WHERE lower(email) = ${BENCH_ADMIN_EMAIL}`);
  });
}
