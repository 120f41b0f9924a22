/**
 * `muster import --invite` as operators run it (a subprocess against a fresh database, the emails
 * read from a real local SMTP server): invitations only when asked, only for registrations still
 * `invited`, never twice for the same registration; JSON and CSV re-imports are idempotent.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { describeRun, freshDatabase, runCli, runJson, singleJson, type TestDatabase } from './harness.js';

let db: TestDatabase;
let smtp: TestSmtp;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await freshDatabase({ migrate: true });
  smtp = await startSmtp();
  env = { SMTP_URL: smtp.url, MUSTER_BASE_URL: 'https://muster.example' };
  await runJson(db, ['series', 'create', '--name', 'Camp Series']);
  await runJson(db, [
    'events',
    'create',
    '--series',
    'camp-series',
    '--name',
    'Camp 2027',
    '--support-email',
    'camp@muster.example',
  ]);
}, 120_000);

afterAll(async () => {
  await smtp?.close();
  await db?.cleanup();
});

async function importJson(args: string[]) {
  const run = await runCli(db, ['import', '--event', 'camp-2027', ...args, '--json'], env);
  if (run.code !== 0) throw new Error(`import exited ${run.code}: ${describeRun(run)}`);
  return singleJson(run.stdout);
}

async function rows<T>(text: string): Promise<T[]> {
  return db.query(async (d) => (await d.execute(sql.raw(text))).rows as T[]);
}

const ITEMS = [
  { email: 'Ada@Example.org', personal: { legal_first_name: 'Ada', legal_last_name: 'Lovelace' } },
  {
    email: 'ben@example.org',
    status: 'complete',
    personal: { legal_first_name: 'Ben', legal_last_name: 'Done' },
  },
  {
    email: 'cy@example.org',
    personal: { legal_first_name: 'Cy', legal_last_name: 'Young', date_of_birth: '2013-02-03' },
    guardians: [{ name: 'Di Young', email: 'di@example.org', is_primary: true }],
  },
];

describe('muster import --invite', { timeout: 600_000 }, () => {
  it('without --invite sends nothing', async () => {
    const file = path.join(db.dataDir, 'first.json');
    await writeFile(file, JSON.stringify([ITEMS[0]]));
    const out = await importJson([file]);
    expect(out).toEqual({
      event_id: expect.any(Number),
      event_slug: 'camp-2027',
      created: 1,
      updated: 0,
      registration_ids: [expect.any(Number)],
    });
    expect(await rows(`SELECT id FROM invitations`)).toEqual([]);
    expect(await rows(`SELECT id FROM email_log`)).toEqual([]);
  });

  it('invites every registration still invited, from the event address, with a working token link', async () => {
    const file = path.join(db.dataDir, 'all.json');
    await writeFile(file, JSON.stringify(ITEMS));
    const out = await importJson([file, '--invite']);
    expect(out).toMatchObject({
      created: 2,
      updated: 1,
      invited: ['ada@example.org', 'cy@example.org'],
      already_invited: [],
      emails_sent: 2,
      emails_failed: 0,
      emails_queued: 0,
    });
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(['ada@example.org', 'cy@example.org']);
    const mail = smtp.received.find((m) => m.to[0] === 'cy@example.org')!;
    expect(mail.from).toBe('camp@muster.example');
    expect(mail.subject).toContain('Camp 2027');
    const token = /register\/accept\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    const invites = await rows<{ email: string; status: string; first_name: string; token_digest: string }>(
      `SELECT email, status, first_name, token_digest FROM invitations ORDER BY email`,
    );
    expect(invites.map((i) => [i.email, i.status, i.first_name])).toEqual([
      ['ada@example.org', 'pending', 'Ada'],
      ['cy@example.org', 'pending', 'Cy'],
    ]);
    // Stored as a digest only.
    expect(JSON.stringify(invites)).not.toContain(token!);
    const audit = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'participants.invite'`,
    );
    expect(audit).toEqual([{ n: 2 }]);
  });

  it('re-importing the same file updates in place and sends nothing again', async () => {
    const file = path.join(db.dataDir, 'all.json');
    const before = await rows(
      `SELECT (SELECT count(*) FROM people) p, (SELECT count(*) FROM registrations) r, (SELECT count(*) FROM guardians) g, (SELECT count(*) FROM invitations) i`,
    );
    const out = await importJson([file, '--invite']);
    expect(out).toMatchObject({
      created: 0,
      updated: 3,
      invited: [],
      already_invited: ['ada@example.org', 'cy@example.org'],
      emails_sent: 0,
    });
    const after = await rows(
      `SELECT (SELECT count(*) FROM people) p, (SELECT count(*) FROM registrations) r, (SELECT count(*) FROM guardians) g, (SELECT count(*) FROM invitations) i`,
    );
    expect(after).toEqual(before);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received).toHaveLength(2);
  });

  it('CSV: new rows are invited, registrations already past invited are not; re-import is idempotent', async () => {
    const file = path.join(db.dataDir, 'more.csv');
    await writeFile(
      file,
      'email,first_name,last_name,status,date_of_birth,guardian_name,guardian_email,emergency_contact_name,emergency_contact_phone,emergency_contact_relationship\n' +
        'eve@example.org,Eve,Early,,2012-01-01,Fay Early,fay@example.org,Gus Early,+447700900555,uncle\n' +
        'ben@example.org,Ben,Done,complete,,,,,,\n' +
        'ada@example.org,Ada,Lovelace,,,,,,,\n',
    );
    const out = await importJson([file, '--invite']);
    expect(out).toMatchObject({
      created: 1,
      updated: 2,
      invited: ['eve@example.org'],
      already_invited: ['ada@example.org'],
      emails_sent: 1,
    });
    await smtp.waitFor((m) => m.to.includes('eve@example.org'));
    const again = await importJson([file, '--invite']);
    expect(again).toMatchObject({ created: 0, updated: 3, invited: [], emails_sent: 0 });
    const eve = await rows(`
      SELECT p.date_of_birth::text AS dob, r.status,
             (SELECT count(*)::int FROM guardians g WHERE g.registration_id = r.id) AS guardians,
             (SELECT count(*)::int FROM emergency_contacts c WHERE c.registration_id = r.id) AS contacts
        FROM people p JOIN registrations r ON r.person_id = p.id WHERE p.email = 'eve@example.org'`);
    expect(eve).toEqual([{ dob: '2012-01-01', status: 'invited', guardians: 1, contacts: 1 }]);
    expect(smtp.received).toHaveLength(3);
  });

  it('an invalid file writes nothing and sends nothing (exit 1)', async () => {
    const file = path.join(db.dataDir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify([
        { email: 'zed@example.org', personal: { legal_first_name: 'Zed', legal_last_name: 'Z' } },
        { email: 'not-an-email' },
      ]),
    );
    const run = await runCli(db, ['import', '--event', 'camp-2027', file, '--invite', '--json'], env);
    expect(run.code).toBe(1);
    expect(singleJson(run.stdout).error).toContain('items[1]');
    expect(await rows(`SELECT id FROM people WHERE email = 'zed@example.org'`)).toEqual([]);
    expect(smtp.received).toHaveLength(3);
  });
});
