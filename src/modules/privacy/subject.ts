/**
 * The data subject of a subject-access export or an erasure (docs/privacy.md): one person, found by
 * a registration (staff routes) or by the signed-in user (their own export), with the addresses
 * Muster knows them by and the set of registrations the caller may see.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';

export interface Subject {
  /** `people.id`, or null for a user with no participant record. */
  personId: number | null;
  /** `users.id` of the person's account, or null. */
  userId: number | null;
  /** Every address the person is known by (person and account), lower-cased; empty for an event's shredding. */
  emails: string[];
  /** A sub-select of the registration ids in scope (`SELECT id FROM registrations …`). */
  registrations: SQL;
  /**
   * True when the whole person is in scope (a global admin, or the person themselves); false for a
   * safeguarding lead, who sees only the registrations of events they lead and no account data.
   */
  whole: boolean;
}

type PersonRow = {
  person_id: number;
  user_id: number | null;
  email: string;
  user_email: string | null;
};

function emailsOf(row: PersonRow): string[] {
  const set = new Set([row.email.toLowerCase()]);
  if (row.user_email) set.add(row.user_email.toLowerCase());
  return [...set];
}

/**
 * The person holding registration `registrationId`. `leadUserId`: restrict the registrations to the
 * events where that user is a safeguarding lead (null: every registration of the person).
 */
export async function subjectOfRegistration(
  db: Tx,
  registrationId: number,
  leadUserId: number | null,
): Promise<Subject> {
  const res = await db.execute<PersonRow>(sql`
    SELECT p.id AS person_id, p.user_id, p.email, u.email AS user_email
      FROM registrations r JOIN people p ON p.id = r.person_id LEFT JOIN users u ON u.id = p.user_id
     WHERE r.id = ${registrationId}`);
  const row = res.rows[0];
  if (!row) throw new Error(`registration ${registrationId} has no person`);
  const lead =
    leadUserId === null
      ? sql``
      : sql` AND event_id IN (SELECT event_id FROM event_roles
                               WHERE user_id = ${leadUserId} AND role = 'safeguarding_lead')`;
  return {
    personId: row.person_id,
    userId: row.user_id,
    emails: emailsOf(row),
    registrations: sql`SELECT id FROM registrations WHERE person_id = ${row.person_id}${lead}`,
    whole: leadUserId === null,
  };
}

/**
 * An event's registrations as the subject of retention shredding: registration-keyed rows only
 * (no person, account or address; `whole` false).
 */
export function eventSubject(eventId: number): Subject {
  return {
    personId: null,
    userId: null,
    emails: [],
    registrations: sql`SELECT id FROM registrations WHERE event_id = ${eventId}`,
    whole: false,
  };
}

/** The signed-in user as a data subject: their account and, when they have one, their participant record. */
export async function subjectOfUser(db: Tx, userId: number): Promise<Subject> {
  const res = await db.execute<{ email: string; person_id: number | null; person_email: string | null }>(sql`
    SELECT u.email, p.id AS person_id, p.email AS person_email
      FROM users u LEFT JOIN people p ON p.user_id = u.id WHERE u.id = ${userId}
     ORDER BY p.id LIMIT 1`);
  const row = res.rows[0];
  if (!row) throw new Error(`user ${userId} not found`);
  const emails = new Set([row.email.toLowerCase()]);
  if (row.person_email) emails.add(row.person_email.toLowerCase());
  return {
    personId: row.person_id,
    userId,
    emails: [...emails],
    registrations:
      row.person_id === null
        ? sql`SELECT id FROM registrations WHERE false`
        : sql`SELECT id FROM registrations WHERE person_id = ${row.person_id}`,
    whole: true,
  };
}

/** `lower(<column>) IN (<the subject's addresses>)`. */
export function emailIn(column: SQL, s: Subject): SQL {
  if (s.emails.length === 0) return sql`false`;
  return sql`lower(${column}) IN (${sql.join(
    s.emails.map((e) => sql`${e}`),
    sql`, `,
  )})`;
}
