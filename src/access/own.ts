/**
 * Ownership targets (docs/decisions.md "Registration side"): `{participant_event_id}`
 * names a registration the caller may act on only when its person is linked to the caller
 * (`people.user_id`); `{id}` under /consents names a consent of such a registration. Resolved by the
 * gate (authorize.ts) in the check order of docs/decisions.md "Status codes and check order": malformed or unknown → 404; someone
 * else's → 403 `This is not your registration` (staff included: they use the participants
 * endpoints). Pinned by test/access/rows/registration.ts and registrations-record.ts.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import type { RegistrationStatus } from '../db/schema/index.js';
import { forbidden, notFound } from '../lib/errors.js';

export const REGISTRATION_NOT_FOUND = 'Registration not found';
export const CONSENT_NOT_FOUND = 'Consent not found';
export const NOT_YOUR_REGISTRATION = 'This is not your registration';

/** A registration of the caller's, as the gate resolved it (status as read then; lock it to rely on it). */
export interface OwnRegistration {
  id: number;
  status: RegistrationStatus;
  eventId: number;
  seriesId: string;
  personId: number;
  /** The person's email. */
  email: string;
}

const INT = /^[0-9]{1,9}$/;

type Row = Omit<OwnRegistration, 'id' | 'eventId' | 'personId'> & {
  id: number | string;
  eventId: number | string;
  personId: number | string;
  user_id: number | string | null;
  [key: string]: unknown;
};

async function registrationWhere(db: Tx, where: SQL, lock: boolean): Promise<Row | undefined> {
  const res = await db.execute<Row>(
    sql`SELECT r.id, r.status, r.event_id AS "eventId", e.series_id AS "seriesId", r.person_id AS "personId",
               p.email, p.user_id
          FROM registrations r JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
         WHERE ${where}${lock ? sql` FOR UPDATE OF r` : sql``}`,
  );
  return res.rows[0];
}

function ownRow(row: Row): OwnRegistration {
  const { user_id: _, ...reg } = row;
  return { ...reg, id: Number(reg.id), eventId: Number(reg.eventId), personId: Number(reg.personId) };
}

/** `{participant_event_id}` → the caller's registration: 404 malformed/unknown, 403 someone else's. */
export async function resolveOwnRegistration(db: Tx, raw: string, userId: number): Promise<OwnRegistration> {
  if (!INT.test(raw)) throw notFound(REGISTRATION_NOT_FOUND);
  const row = await registrationWhere(db, sql`r.id = ${Number(raw)}`, false);
  if (!row) throw notFound(REGISTRATION_NOT_FOUND);
  if (row.user_id === null || Number(row.user_id) !== userId) throw forbidden(NOT_YOUR_REGISTRATION);
  return ownRow(row);
}

/** `{id}` of a consent → the caller's registration it belongs to: 404 `Consent not found`, 403 someone else's. */
export async function resolveOwnConsent(db: Tx, raw: string, userId: number): Promise<OwnRegistration> {
  if (!INT.test(raw)) throw notFound(CONSENT_NOT_FOUND);
  const row = await registrationWhere(
    db,
    sql`r.id = (SELECT c.registration_id FROM consents c WHERE c.id = ${Number(raw)})`,
    false,
  );
  if (!row) throw notFound(CONSENT_NOT_FOUND);
  if (row.user_id === null || Number(row.user_id) !== userId) throw forbidden(NOT_YOUR_REGISTRATION);
  return ownRow(row);
}

/**
 * The registration `id` (already resolved by the gate) locked FOR UPDATE in `tx`, with its current
 * status: writes that depend on the status read it here, not from the gate's earlier read.
 */
export async function lockOwnRegistration(tx: Tx, id: number): Promise<OwnRegistration> {
  const row = await registrationWhere(tx, sql`r.id = ${id}`, true);
  if (!row) throw notFound(REGISTRATION_NOT_FOUND);
  return ownRow(row);
}
