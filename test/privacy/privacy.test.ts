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
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { getPage, signedInBrowser } from '../web/support.js';
import {
  addSubject,
  everyRow,
  linesNaming,
  SUBJECT_EMAIL,
  SUBJECT_PHONE,
  statistics,
} from './subject-fixture.js';

const EMAIL = SUBJECT_EMAIL;
const PHONE = SUBJECT_PHONE;
let t: TestApp;
let world: World;
let regA: number;
let regB: number;
let subjectToken: string;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
  const subject = await addSubject(t, world, { atB: true });
  regA = subject.regA;
  regB = subject.regB as number;
  subjectToken = subject.token;
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
    const stats = await statistics(t);
    expect(await everyRow(t)).toContain('Quillfeather');
    const res = await t.app.inject({
      method: 'POST',
      url: staffUrl(world.events.A.id, regA, 'erase'),
      headers: bearer(world.secrets.admin),
      payload: { confirm_email: EMAIL.toUpperCase() },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().erased.tables.people).toBe(1);
    const dump = (await everyRow(t)).toLowerCase();
    // The audit rows of the erasure and exports name tables and counts only.
    expect(linesNaming(dump)).toEqual([]);
    expect(await statistics(t)).toEqual(stats);
    expect((await get(t.app, '/api/v1/me', subjectToken)).statusCode).toBe(401);
    if (t.deps.config.databaseUrl) {
      const pgDump = execFileSync('pg_dump', ['--data-only', t.deps.config.databaseUrl], {
        maxBuffer: 512 * 1024 * 1024,
      }).toString();
      expect(pgDump).toContain('erased@erased.invalid');
      expect(linesNaming(pgDump)).toEqual([]);
    }
  });
});
