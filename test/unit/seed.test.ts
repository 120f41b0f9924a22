/**
 * The demo seed: deterministic for a seed and clock (same people, statuses, travel on two fresh
 * databases), every section populated, seeded only once.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { type DemoResult, isDatabaseEmpty, seedDemo } from '../../src/demo/seed.js';
import { ApiError } from '../../src/lib/errors.js';
import { withFreshDatabase } from '../cli/harness.js';

const NOW = new Date('2026-03-02T10:45:00Z');
const SECTION_TABLES = [
  'people',
  'registrations',
  'registration_accommodations',
  'registration_medical',
  'registration_dietary',
  'registration_accessibility',
  'registration_safeguarding',
  'consents',
  'guardians',
  'emergency_contacts',
  'travels',
  'travel_legs',
  'scans',
  'scan_contexts',
  'event_roles',
  'series_roles',
  'mobile_tokens',
  'series_api_keys',
  'event_api_keys',
];

interface Snapshot {
  result: DemoResult;
  people: unknown[];
  travel: unknown[];
  counts: Record<string, number>;
  statuses: Record<string, number>;
  minors: number;
  checkedIn: number;
  badges: number;
  waiverSigned: number;
}

async function seedAndRead(db: Db, seed: number): Promise<Snapshot> {
  expect(await isDatabaseEmpty(db)).toBe(true);
  const result = await db.transaction((tx) => seedDemo(tx, { participants: 30, seed, now: NOW }));
  expect(await isDatabaseEmpty(db)).toBe(false);
  const rows = async (q: ReturnType<typeof sql>) => (await db.execute(q)).rows;
  const people = await rows(sql`
    SELECT p.email, p.legal_first_name, p.legal_last_name, p.date_of_birth, r.status, r.tshirt_size
    FROM registrations r JOIN people p ON p.id = r.person_id WHERE r.event_id = ${result.eventId} ORDER BY r.id`);
  const travel = await rows(sql`
    SELECT t.direction, t.mode, t.departure_time, l.position, l.flight_code, l.departure_airport, l.arrival_airport
    FROM travels t LEFT JOIN travel_legs l ON l.travel_id = t.id ORDER BY t.registration_id, t.direction, l.position`);
  const counts: Record<string, number> = {};
  for (const t of SECTION_TABLES)
    counts[t] = Number((await rows(sql.raw(`SELECT count(*) AS n FROM ${t}`)))[0]!.n);
  const statuses: Record<string, number> = {};
  for (const r of await rows(
    sql`SELECT status, count(*)::int AS n FROM registrations WHERE event_id = ${result.eventId} GROUP BY status`,
  )) {
    statuses[String(r.status)] = Number(r.n);
  }
  const one = async (q: ReturnType<typeof sql>) => Number((await rows(q))[0]!.n);
  return {
    result,
    people,
    travel,
    counts,
    statuses,
    minors: await one(sql`SELECT count(DISTINCT registration_id) AS n FROM guardians`),
    checkedIn: await one(
      sql`SELECT count(DISTINCT s.registration_id) AS n FROM scans s JOIN scan_contexts c ON c.id = s.scan_context_id WHERE c.checks_in`,
    ),
    badges: await one(sql`SELECT count(*) AS n FROM registrations WHERE nfc_badge_token IS NOT NULL`),
    waiverSigned: await one(
      sql`SELECT count(*) AS n FROM consents WHERE consent_type = 'waiver' AND status = 'signed'`,
    ),
  };
}

describe('seedDemo', { timeout: 120_000 }, () => {
  it('is deterministic for a seed and populates every section', async () => {
    const a = await withFreshDatabase((db) => seedAndRead(db, 11));
    const b = await withFreshDatabase(async (db) => {
      const snap = await seedAndRead(db, 11);
      // Seeding twice is refused (409), and nothing changes.
      await expect(
        db.transaction((tx) => seedDemo(tx, { participants: 5, seed: 11, now: NOW })),
      ).rejects.toBeInstanceOf(ApiError);
      expect(Number((await db.execute(sql`SELECT count(*) AS n FROM people`)).rows[0]!.n)).toBe(30);
      return snap;
    });

    expect(b.people).toEqual(a.people);
    expect(b.travel).toEqual(a.travel);
    expect(b.counts).toEqual(a.counts);
    expect(b.result.credentials.admin_mobile_token).not.toBe(a.result.credentials.admin_mobile_token); // secrets are random

    for (const table of SECTION_TABLES) expect(a.counts[table], table).toBeGreaterThan(0);
    expect(a.people).toHaveLength(30);
    for (const section of [
      'registration_accommodations',
      'registration_medical',
      'registration_dietary',
      'registration_accessibility',
      'registration_safeguarding',
    ]) {
      expect(a.counts[section], section).toBe(30);
    }
    expect(a.counts.travels).toBe(60); // inbound and outbound for everyone
    expect(a.counts.scan_contexts).toBe(5); // 4 in the demo event + the sibling's default
    expect(a.statuses.rejected).toBe(1);
    expect(a.statuses.withdrawn).toBeGreaterThanOrEqual(2);
    expect(a.statuses.complete).toBeGreaterThan(15);
    expect(a.minors).toBeGreaterThan(3);
    expect(a.checkedIn).toBeGreaterThan(3);
    expect(a.badges).toBeGreaterThan(0);
    expect(a.waiverSigned).toBeGreaterThan(15);
    expect(a.travel.some((t) => (t as { mode: string }).mode === 'plane')).toBe(true);
    expect(a.result.users.map((u) => u.role)).toEqual([
      'global_admin',
      'event_admin',
      'ops',
      'safeguarding_lead',
      'limited',
      'read_only',
      'series_owner',
    ]);
  });
});
