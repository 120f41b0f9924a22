/**
 * Subject access and erasure (docs/privacy.md), over HTTP against a real database: the ZIP holds
 * every row naming the person (and a lead's holds only their events), a refused erasure changes
 * nothing, and after erasure no table (nor, on PostgreSQL, a full pg_dump) holds the person's name,
 * address or phone, while counts and check-in statistics are unchanged and their tokens are dead.
 */
import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, populateSections, type World } from '../support/world.js';
import { getPage, signedInBrowser } from '../web/support.js';

const EMAIL = 'zephyrine.quillfeather@subject.example';
const PHONE = '+447700912345';
const SECRETS = [
  'zephyrine.quillfeather',
  'Zephyrine',
  'Quillfeather',
  '7700912345',
  'gideon.quillfeather@guardian.example',
  '7700954321',
  'Gideon Quillfeather',
];

let t: TestApp;
let world: World;
let regA: number;
let regB: number;
let subjectToken: string;

async function setUp(): Promise<void> {
  await t.deps.db.transaction(async (tx) => {
    const user = await tx.execute<{ id: number }>(
      sql`INSERT INTO users (email, name) VALUES (${EMAIL}, 'Zephyrine Quillfeather') RETURNING id`,
    );
    const userId = user.rows[0]!.id;
    subjectToken = (await issueMobileToken(tx, userId, { deviceName: 'Zephyrine Quillfeather phone' }))
      .secret;
    const a = await addRegistration(tx, {
      eventId: world.events.A.id,
      email: EMAIL,
      firstName: 'Zephyrine',
      lastName: 'Quillfeather',
      preferredName: 'Zephyrine Q',
      dateOfBirth: '2011-03-04',
      status: 'complete',
      userId,
      phone: PHONE,
    });
    regA = a.id;
    await populateSections(tx, regA);
    const b = await tx.execute<{ id: number }>(
      sql`INSERT INTO registrations (event_id, person_id, status) VALUES (${world.events.B.id}, ${a.personId}, 'complete') RETURNING id`,
    );
    regB = b.rows[0]!.id;
    await tx.execute(sql`INSERT INTO guardians (registration_id, name, email, phone, relationship, status)
      VALUES (${regA}, 'Gideon Quillfeather', 'gideon.quillfeather@guardian.example', '+447700954321', 'father', 'completed')`);
    await tx.execute(sql`INSERT INTO emergency_contacts (registration_id, name, phone, email, relationship, priority)
      VALUES (${regA}, 'Gideon Quillfeather', '+447700954321', 'gideon.quillfeather@guardian.example', 'father', 1)`);
    const travel = await tx.execute<{
      id: number;
    }>(sql`INSERT INTO travels (registration_id, direction, mode, origin_address, notes)
      VALUES (${regA}, 'inbound', 'flight', '7 Quillfeather Lane', 'Zephyrine flies alone') RETURNING id`);
    await tx.execute(sql`INSERT INTO travel_legs (travel_id, position, flight_code, departure_airport, arrival_airport)
      VALUES (${travel.rows[0]!.id}, 0, 'BA117', 'JFK', 'LHR')`);
    await tx.execute(sql`INSERT INTO notes (event_id, registration_id, author_user_id, content, note_type, sensitivity)
      VALUES (${world.events.A.id}, ${regA}, ${world.users.safeguarding.id}, 'Zephyrine Quillfeather was upset', 'safeguarding', 'restricted')`);
    await tx.execute(sql`INSERT INTO scans (event_id, registration_id, scan_context_id, source, outcome, scanned_at, collected_by)
      VALUES (${world.events.A.id}, ${regA}, ${world.contexts.checkInA}, 'qr', 'scanned', now(), 'Gideon Quillfeather')`);
    await tx.execute(sql`INSERT INTO email_log (to_email, from_email, template, subject, status, event_id)
      VALUES (${EMAIL}, 'alpha@muster.example', 'invitation', 'Welcome Zephyrine Quillfeather', 'sent', ${world.events.A.id})`);
    await tx.execute(sql`INSERT INTO invitations (event_id, email, first_name, last_name, token_digest, status, expires_at, registration_id)
      VALUES (${world.events.A.id}, ${EMAIL}, 'Zephyrine', 'Quillfeather', 'digest-zq', 'accepted', now() + interval '1 day', ${regA})`);
  });
  await t.deps.jobs.enqueue(t.deps.db, 'retention-prune', {});
  await t.deps.db.execute(
    sql`UPDATE pgboss.job SET data = ${JSON.stringify({ to: EMAIL, registration_id: regA })}::jsonb WHERE name = 'retention-prune'`,
  );
}

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  await setUp();
}, 120_000);
afterAll(async () => t?.close());

type Data = { scope: string; tables: Record<string, Record<string, unknown>[]>; jobs: unknown[] };

async function exportAs(secret: string | undefined, url: string) {
  const res = await get(t.app, url, secret);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(res.headers['cache-control']).toBe('no-store');
  const files = unzipSync(new Uint8Array(res.rawPayload));
  expect(Object.keys(files).sort()).toEqual(['README.txt', 'muster-data.json', 'muster-data.pdf']);
  expect(Buffer.from(files['muster-data.pdf']!).subarray(0, 5).toString()).toBe('%PDF-');
  return JSON.parse(Buffer.from(files['muster-data.json']!).toString()) as Data;
}

const staffUrl = (event: number | string, reg: number, action = 'data-export') =>
  `/api/v1/events/${event}/participants/${reg}/${action}`;

/** Every row of every table (public and the job queue's), as text: what a logical dump holds. */
async function everyRow(): Promise<string> {
  const tables = await t.deps.db.execute<{ s: string; n: string }>(sql`
    SELECT table_schema AS s, table_name AS n FROM information_schema.tables
     WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`);
  const parts: string[] = [];
  for (const { s, n } of tables.rows) {
    const res = await t.deps.db.execute<{ r: string }>(
      sql`SELECT t::text AS r FROM ${sql.identifier(s)}.${sql.identifier(n)} t`,
    );
    for (const row of res.rows) parts.push(row.r);
  }
  return parts.join('\n');
}

async function statistics() {
  const res = await t.deps.db.execute(sql`
    SELECT (SELECT json_agg(x ORDER BY x.event_id, x.status) FROM (
              SELECT event_id, status, count(*)::int AS n FROM registrations GROUP BY 1, 2) x) AS registrations,
           (SELECT json_agg(y ORDER BY y.scan_context_id) FROM (
              SELECT scan_context_id, count(*)::int AS n, count(DISTINCT registration_id)::int AS people
                FROM scans GROUP BY 1) y) AS scans,
           (SELECT count(*)::int FROM consents) AS consents`);
  return res.rows[0];
}

describe('subject access', () => {
  it('a global admin gets every row naming the person, across events, with their account and jobs', async () => {
    const data = await exportAs(world.secrets.admin, staffUrl(world.events.A.id, regA));
    expect(data.scope).toBe('whole');
    expect(data.tables.people?.[0]).toMatchObject({
      email: EMAIL,
      phone: PHONE,
      legal_last_name: 'Quillfeather',
    });
    expect(data.tables.registrations?.map((r) => r.id).sort()).toEqual([regA, regB].sort());
    for (const table of [
      'users',
      'mobile_tokens',
      'registration_medical',
      'registration_safeguarding',
      'guardians',
      'emergency_contacts',
      'travels',
      'travel_legs',
      'notes',
      'scans',
      'email_log',
      'invitations',
    ])
      expect(data.tables[table]?.length, table).toBeGreaterThan(0);
    expect(data.jobs).toHaveLength(1);
  });

  it('a safeguarding lead of event A gets only event A’s registration and no account data', async () => {
    const data = await exportAs(world.secrets.safeguarding, staffUrl(world.events.A.slug, regA));
    expect(data.scope).toBe('events_you_lead');
    expect(data.tables.registrations?.map((r) => r.id)).toEqual([regA]);
    for (const table of ['users', 'mobile_tokens', 'email_log', 'sign_in_requests'])
      expect(data.tables[table]).toBeUndefined();
    expect(data.jobs).toEqual([]);
  });

  it('the person downloads their own data', async () => {
    const data = await exportAs(subjectToken, '/api/v1/me/data-export');
    expect(data.scope).toBe('whole');
    expect(data.tables.people?.[0]?.email).toBe(EMAIL);
  });

  it('the home page links to the download, and /my-data sends the signed-in person their own ZIP', async () => {
    const browser = await signedInBrowser(t.deps, world.users.participant.id);
    const home = await getPage(t.app, browser, '/');
    expect(home.body).toMatch(/<a class="button" href="\/my-data" download>Download my data<\/a>/);
    const res = await getPage(t.app, browser, '/my-data');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const data = JSON.parse(Buffer.from(files['muster-data.json']!).toString()) as Data;
    expect(data.tables.people?.[0]?.email).toBe(world.regs.adultA.email);
    expect(JSON.stringify(data)).not.toContain('Quillfeather'); // nobody else's data
  });

  it('is audited with counts, never values', async () => {
    const res = await t.deps.db.execute<{ metadata: unknown }>(
      sql`SELECT metadata FROM audit_log WHERE action = 'person.exported'`,
    );
    expect(res.rows.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(res.rows)).not.toContain('Quillfeather');
  });
});

describe('erasure', () => {
  it('refuses a wrong confirmation (422) and a lead of only one of the events (403), changing nothing', async () => {
    const before = await snapshotDb(t.deps);
    const wrong = await t.app.inject({
      method: 'POST',
      url: staffUrl(world.events.A.id, regA, 'erase'),
      headers: bearer(world.secrets.admin),
      payload: { confirm_email: 'someone.else@subject.example' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ error: 'confirm_email must be the person’s email address' });
    const lead = await t.app.inject({
      method: 'POST',
      url: staffUrl(world.events.A.id, regA, 'erase'),
      headers: bearer(world.secrets.safeguarding),
      payload: { confirm_email: EMAIL },
    });
    expect(lead.statusCode).toBe(403);
    expect(lead.json().error).toMatch(/events you do not lead/);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('leaves no name, email or phone of the person anywhere, keeps the counts, and kills their tokens', async () => {
    const stats = await statistics();
    expect(await everyRow()).toContain('Quillfeather');
    const res = await t.app.inject({
      method: 'POST',
      url: staffUrl(world.events.A.id, regA, 'erase'),
      headers: bearer(world.secrets.admin),
      payload: { confirm_email: EMAIL.toUpperCase() },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().erased.tables.people).toBe(1);
    const dump = (await everyRow()).toLowerCase();
    // The audit rows of the erasure and exports name tables and counts only.
    for (const secret of SECRETS)
      expect(
        dump.split('\n').filter((line) => line.includes(secret.toLowerCase())),
        secret,
      ).toEqual([]);
    expect(await statistics()).toEqual(stats);
    expect((await get(t.app, '/api/v1/me', subjectToken)).statusCode).toBe(401);
    if (t.deps.config.databaseUrl) {
      const pgDump = execFileSync('pg_dump', ['--data-only', t.deps.config.databaseUrl], {
        maxBuffer: 512 * 1024 * 1024,
      }).toString();
      expect(pgDump).toContain('erased@erased.invalid');
      for (const secret of SECRETS) expect(pgDump.toLowerCase(), secret).not.toContain(secret.toLowerCase());
    }
  });
});
