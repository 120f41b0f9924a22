/**
 * The CLI as operators run it: `muster <command> --json` in a subprocess against a fresh database
 * (embedded folder, or a new PostgreSQL database when DATABASE_URL is set). Tests run in order and
 * share one database; each `--json` call asserts stdout is exactly one JSON object.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, runCli, runJson, singleJson, type TestDatabase } from './harness.js';

let db: TestDatabase;
const ids: Record<string, unknown> = {};

beforeAll(async () => {
  db = await freshDatabase({ migrate: true });
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

async function counts(tables: string[]): Promise<Record<string, number>> {
  return db.query(async (d) => {
    const out: Record<string, number> = {};
    for (const t of tables) {
      const r = await d.execute(sql.raw(`SELECT count(*)::int AS n FROM ${t}`));
      out[t] = (r.rows[0] as { n: number }).n;
    }
    return out;
  });
}

describe('muster CLI', { timeout: 120_000 }, () => {
  it('users create prints the user; a duplicate email exits 1 with the reason', async () => {
    const admin = await runJson(db, [
      'users',
      'create',
      '--email',
      ' Chief@Muster.example ',
      '--name',
      'Chief',
      '--global-admin',
    ]);
    expect(admin).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'chief@muster.example',
      name: 'Chief',
      global_admin: true,
    });
    const staff = await runJson(db, [
      'users',
      'create',
      '--email',
      'staff@muster.example',
      '--name',
      'Staff',
    ]);
    expect(staff.global_admin).toBe(false);
    ids.staffId = staff.id;

    const dup = await runCli(db, [
      'users',
      'create',
      '--email',
      'CHIEF@muster.example',
      '--name',
      'Again',
      '--json',
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
    expect(singleJson(dup.stdout)).toEqual({ error: expect.stringContaining('already exists') });
    expect(dup.stderr).not.toMatch(/\n\s+at /); // no stack trace for an expected error
  });

  it('series and events create; a support email outside the operator domains is refused', async () => {
    const series = await runJson(db, [
      'series',
      'create',
      '--name',
      'Spring Games',
      '--owner',
      'chief@muster.example',
    ]);
    expect(series).toEqual({
      id: expect.any(String),
      slug: 'spring-games',
      name: 'Spring Games',
      owner_user_id: expect.any(Number),
    });

    const bad = await runCli(db, [
      'events',
      'create',
      '--series',
      'spring-games',
      '--name',
      'Bad',
      '--support-email',
      'help@muster.example.evil.com',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('operator domains');

    const event = await runJson(db, [
      'events',
      'create',
      '--series',
      'spring-games',
      '--name',
      'Spring Games 2026',
      '--support-email',
      'Help@Events.Muster.example',
      '--timezone',
      'Europe/London',
    ]);
    expect(event).toEqual({
      id: expect.any(Number),
      uuid: expect.any(String),
      slug: 'spring-games-2026',
      name: 'Spring Games 2026',
      series_id: series.id,
      support_email: 'help@events.muster.example',
      timezone: 'Europe/London',
      setup_complete: false,
    });
    ids.eventId = event.id;
  });

  it('keys create prints the secret once with ids (series, event, legacy)', async () => {
    const seriesKey = await runJson(db, [
      'keys',
      'create',
      '--series',
      'spring-games',
      '--owner',
      'chief@muster.example',
      '--name',
      'Partner',
    ]);
    expect(seriesKey).toMatchObject({
      secret: expect.stringMatching(/^mst_s_/),
      id: expect.any(Number),
      kind: 'series_key',
      series_slug: 'spring-games',
    });
    const eventKey = await runJson(db, [
      'keys',
      'create',
      '--event',
      'spring-games-2026',
      '--owner',
      'staff@muster.example',
      '--name',
      'Door',
    ]);
    expect(eventKey).toMatchObject({
      secret: expect.stringMatching(/^mst_e_/),
      kind: 'event_key',
      event_id: ids.eventId,
    });
    const legacy = await runJson(db, [
      'keys',
      'create',
      '--event',
      'spring-games-2026',
      '--owner',
      'chief@muster.example',
      '--name',
      'Old',
      '--legacy',
    ]);
    expect(legacy).toMatchObject({
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      kind: 'legacy_event_key',
    });

    const stored = await db.query(async (d) => {
      const r = await d.execute(
        sql`SELECT token_digest FROM series_api_keys UNION ALL SELECT token_digest FROM event_api_keys`,
      );
      return r.rows.map((row) => String((row as { token_digest: string }).token_digest));
    });
    expect(stored).toHaveLength(2);
    expect(stored).not.toContain(seriesKey.secret); // only digests are stored
  });

  it('tokens create: mobile, scoped global; global for a non-admin is refused', async () => {
    const mobile = await runJson(db, [
      'tokens',
      'create',
      '--kind',
      'mobile',
      '--email',
      'staff@muster.example',
    ]);
    expect(mobile).toMatchObject({
      secret: expect.any(String),
      id: expect.any(Number),
      kind: 'mobile',
      expires_at: expect.any(String),
    });
    const global = await runJson(db, [
      'tokens',
      'create',
      '--kind',
      'global',
      '--email',
      'chief@muster.example',
      '--scope',
      'bans:write',
      '--name',
      'Bans',
    ]);
    expect(global).toMatchObject({
      secret: expect.stringMatching(/^mst_g_/),
      kind: 'global',
      scopes: ['bans:write'],
      name: 'Bans',
    });
    const refused = await runCli(db, [
      'tokens',
      'create',
      '--kind',
      'global',
      '--email',
      'staff@muster.example',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not a global admin');
  });

  it('roles grant on an event and on a series; an unknown role exits 1', async () => {
    const eventRole = await runJson(db, [
      'roles',
      'grant',
      '--email',
      'staff@muster.example',
      '--event',
      'spring-games-2026',
      '--role',
      'ops',
    ]);
    expect(eventRole).toMatchObject({ user_id: ids.staffId, role: 'ops', event_id: ids.eventId });
    const seriesRole = await runJson(db, [
      'roles',
      'grant',
      '--email',
      'staff@muster.example',
      '--series',
      'spring-games',
      '--role',
      'organizer',
    ]);
    expect(seriesRole).toMatchObject({
      user_id: ids.staffId,
      role: 'organizer',
      series_slug: 'spring-games',
    });
    const bad = await runCli(db, [
      'roles',
      'grant',
      '--email',
      'staff@muster.example',
      '--event',
      'spring-games-2026',
      '--role',
      'owner',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown event role');

    const rows = await counts(['event_roles', 'series_roles']);
    expect(rows).toEqual({ event_roles: 1, series_roles: 2 }); // organizer + the owner from series create
  });

  it('import of a JSON file twice: same registrations, updated in place, nothing duplicated', async () => {
    const file = path.join(db.dataDir, 'participants.json');
    await writeFile(file, JSON.stringify(sampleItems()));
    const tables = [
      'people',
      'registrations',
      'guardians',
      'emergency_contacts',
      'consents',
      'travels',
      'travel_legs',
      'registration_medical',
    ];

    const first = await runJson(db, ['import', '--event', 'spring-games-2026', file]);
    expect(first).toMatchObject({
      created: 2,
      updated: 0,
      registration_ids: [expect.any(Number), expect.any(Number)],
    });
    const after1 = await counts(tables);
    expect(after1).toEqual({
      people: 2,
      registrations: 2,
      guardians: 1,
      emergency_contacts: 2,
      consents: 2,
      travels: 2,
      travel_legs: 2,
      registration_medical: 1,
    });

    const second = await runJson(db, ['import', '--event', 'spring-games-2026', file, '--invite']);
    expect(second).toMatchObject({
      created: 0,
      updated: 2,
      registration_ids: first.registration_ids,
      // --invite: the one registration still `invited` gets its invitation (no SMTP here: outbox).
      invited: ['bo.second@example.org'],
      already_invited: [],
      emails_sent: 1,
      emails_failed: 0,
      emails_queued: 0,
    });
    expect(await counts(tables)).toEqual(after1);
  });

  it('import of a CSV file; an unknown column exits 1 naming it', async () => {
    const file = path.join(db.dataDir, 'participants.csv');
    await writeFile(
      file,
      'email,first_name,last_name,status,diet_type,guardian_name,guardian_email,address_city\n' +
        'bo.second@example.org,Bo,Second,complete,halal,,,Leeds\n' +
        'cy@example.org,Cy,Third,,,Dee Third,dee@example.org,York\n',
    );
    const run = await runJson(db, ['import', '--event', 'spring-games-2026', file]);
    expect(run).toMatchObject({ created: 1, updated: 1 });
    const rows = await db.query(async (d) => {
      const r = await d.execute(sql`
        SELECT p.email, r.status, p.address->>'city' AS city, dt.diet_type, (SELECT count(*)::int FROM guardians g WHERE g.registration_id = r.id) AS guardians
        FROM registrations r JOIN people p ON p.id = r.person_id LEFT JOIN registration_dietary dt ON dt.registration_id = r.id
        WHERE p.email IN ('bo.second@example.org', 'cy@example.org') ORDER BY p.email`);
      return r.rows;
    });
    expect(rows).toEqual([
      { email: 'bo.second@example.org', status: 'complete', city: 'Leeds', diet_type: 'halal', guardians: 0 },
      { email: 'cy@example.org', status: 'invited', city: 'York', diet_type: null, guardians: 1 },
    ]);

    const bad = path.join(db.dataDir, 'bad.csv');
    await writeFile(bad, 'email,first_name,nickname\nx@example.org,X,Xy\n');
    const refused = await runCli(db, ['import', '--event', 'spring-games-2026', bad, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Unknown CSV column: nickname');
    expect(singleJson(refused.stdout).error).toContain('nickname');
  });
});

function sampleItems() {
  return [
    {
      email: 'Ann.First@Example.org',
      status: 'complete',
      phone: '+441234567890',
      has_anaphylaxis_risk: true,
      allergies: 'peanuts',
      personal: {
        legal_first_name: 'Ann',
        legal_last_name: 'First',
        date_of_birth: '2011-04-02',
        address: { city: 'York' },
      },
      consents: [
        { consent_type: 'waiver', status: 'signed', signed_at: '2026-01-10T10:00:00Z' },
        { consent_type: 'code_of_conduct', status: 'signed' },
      ],
      guardians: [
        {
          name: 'Pat First',
          email: 'pat@example.org',
          is_primary: true,
          emergency_contacts: [{ name: 'Gran First', phone: '+447700900111', relationship: 'Grandparent' }],
        },
      ],
      emergency_contacts: [{ name: 'Uncle Bob', phone: '+447700900222', relationship: 'Uncle' }],
      travel_inbound: {
        mode: 'plane',
        legs: [
          { flight_code: 'KL1001', departure_airport: 'CPH', arrival_airport: 'AMS' },
          { flight_code: 'KL1007', departure_airport: 'AMS', arrival_airport: 'LHR' },
        ],
      },
      travel_outbound: { mode: 'train', train_departure_station: "London King's Cross" },
    },
    { email: 'bo.second@example.org', personal: { legal_first_name: 'Bo', legal_last_name: 'Second' } },
  ];
}
