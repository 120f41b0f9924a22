/**
 * A data subject with something in every table that names a person (test/privacy/*): Zephyrine
 * Quillfeather, with an account and a mobile token, registered at event A (every section, a
 * guardian, an emergency contact, travel, a restricted note, a pickup scan, an email, an invitation,
 * a job naming her) and, optionally, at event B. Her identifying strings are `SUBJECT_SECRETS`.
 */
import { sql } from 'drizzle-orm';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import type { TestApp } from '../support/app.js';
import { addRegistration, populateSections, type World } from '../support/world.js';

export const SUBJECT_EMAIL = 'zephyrine.quillfeather@subject.example';
export const SUBJECT_PHONE = '+447700912345';
export const SUBJECT_SECRETS = [
  'zephyrine.quillfeather',
  'Zephyrine',
  'Quillfeather',
  '7700912345',
  'gideon.quillfeather@guardian.example',
  '7700954321',
  'Gideon Quillfeather',
];

export interface SubjectFixture {
  regA: number;
  regB: number | null;
  token: string;
}

export async function addSubject(t: TestApp, world: World, opts: { atB: boolean }): Promise<SubjectFixture> {
  const out = await t.deps.db.transaction(async (tx) => {
    const user = await tx.execute<{ id: number }>(
      sql`INSERT INTO users (email, name) VALUES (${SUBJECT_EMAIL}, 'Zephyrine Quillfeather') RETURNING id`,
    );
    const userId = user.rows[0]!.id;
    const token = (await issueMobileToken(tx, userId, { deviceName: 'Zephyrine Quillfeather phone' })).secret;
    const a = await addRegistration(tx, {
      eventId: world.events.A.id,
      email: SUBJECT_EMAIL,
      firstName: 'Zephyrine',
      lastName: 'Quillfeather',
      preferredName: 'Zephyrine Q',
      dateOfBirth: '2011-03-04',
      status: 'complete',
      userId,
      phone: SUBJECT_PHONE,
    });
    const regA = a.id;
    await populateSections(tx, regA);
    const regB = opts.atB
      ? (
          await tx.execute<{ id: number }>(
            sql`INSERT INTO registrations (event_id, person_id, status) VALUES (${world.events.B.id}, ${a.personId}, 'complete') RETURNING id`,
          )
        ).rows[0]!.id
      : null;
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
      VALUES (${SUBJECT_EMAIL}, 'alpha@muster.example', 'invitation', 'Welcome Zephyrine Quillfeather', 'sent', ${world.events.A.id})`);
    await tx.execute(sql`INSERT INTO invitations (event_id, email, first_name, last_name, token_digest, status, expires_at, registration_id)
      VALUES (${world.events.A.id}, ${SUBJECT_EMAIL}, 'Zephyrine', 'Quillfeather', 'digest-zq', 'accepted', now() + interval '1 day', ${regA})`);
    return { regA, regB, token };
  });
  // A job whose payload names her (finished, as the queue keeps it after running).
  await t.deps.jobs.enqueue(t.deps.db, 'retention-prune', {});
  await t.deps.db.execute(
    sql`UPDATE pgboss.job SET data = ${JSON.stringify({ to: SUBJECT_EMAIL, registration_id: out.regA })}::jsonb,
          state = 'completed', completed_on = now() WHERE name = 'retention-prune'`,
  );
  return out;
}

/** Every row of every table (public and the job queue's), as text: what a logical dump holds. */
export async function everyRow(t: TestApp, exclude: readonly string[] = []): Promise<string> {
  const tables = await t.deps.db.execute<{ s: string; n: string }>(sql`
    SELECT table_schema AS s, table_name AS n FROM information_schema.tables
     WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`);
  const parts: string[] = [];
  for (const { s, n } of tables.rows) {
    if (exclude.includes(n)) continue;
    const res = await t.deps.db.execute<{ r: string }>(
      sql`SELECT t::text AS r FROM ${sql.identifier(s)}.${sql.identifier(n)} t`,
    );
    for (const row of res.rows) parts.push(row.r);
  }
  return parts.join('\n');
}

/** Lines of `dump` holding any of the subject's identifying strings (case-insensitive). */
export function linesNaming(dump: string): string[] {
  const lower = SUBJECT_SECRETS.map((s) => s.toLowerCase());
  return dump.split('\n').filter((line) => lower.some((s) => line.toLowerCase().includes(s)));
}

/** Registration counts by event and status, scan counts and people per context, consents: what shredding keeps. */
export async function statistics(t: TestApp) {
  const res = await t.deps.db.execute(sql`
    SELECT (SELECT json_agg(x ORDER BY x.event_id, x.status) FROM (
              SELECT event_id, status, count(*)::int AS n, count(first_checked_in_at)::int AS checked_in
                FROM registrations GROUP BY 1, 2) x) AS registrations,
           (SELECT json_agg(y ORDER BY y.scan_context_id) FROM (
              SELECT scan_context_id, count(*)::int AS n, count(DISTINCT registration_id)::int AS people
                FROM scans GROUP BY 1) y) AS scans,
           (SELECT count(*)::int FROM consents) AS consents`);
  return res.rows[0];
}
