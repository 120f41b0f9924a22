/**
 * The lifecycle's writes (docs/architecture.md "Write model"): a status with the timestamps it sets
 * (STATUS_STAMPS, the one rule), the submission time, and the one function that creates a person
 * and their registration. `transition()` (lifecycle.ts) moves a status under the rules; import,
 * a data load rather than a move, writes the status its file gives through `writeStatus` directly.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { people, type RegistrationStatus, registrations } from '../../../db/schema/index.js';
import { STATUS_STAMPS, type StatusStamp } from './lifecycle.rules.js';

type StatusValues = { status: RegistrationStatus } & Partial<Record<StatusStamp['column'], SQL>>;

/**
 * `status = to` plus the timestamps `to` sets (STATUS_STAMPS): on an existing row a kept-first
 * stamp is `coalesce(column, now())`, on a new row every stamp is `now()`.
 */
export function statusValues(to: RegistrationStatus, row: 'insert' | 'update'): StatusValues {
  const values: StatusValues = { status: to };
  for (const { column, keepFirst } of STATUS_STAMPS[to] ?? []) {
    values[column] =
      keepFirst && row === 'update' ? sql`coalesce(${registrations[column]}, now())` : sql`now()`;
  }
  return values;
}

/**
 * Writes status `to` and its timestamps on registration `registrationId`. No rule check and no
 * audit entry: `transition()` checks and audits; import writes the status its file gives.
 */
export async function writeStatus(tx: Tx, registrationId: number, to: RegistrationStatus): Promise<void> {
  await tx.update(registrations).set(statusValues(to, 'update')).where(eq(registrations.id, registrationId));
}

/** Records the participant's submission time (`submitted_at = now()`, the latest submission). */
export async function markSubmitted(tx: Tx, registrationId: number): Promise<void> {
  await tx.update(registrations).set({ submittedAt: sql`now()` }).where(eq(registrations.id, registrationId));
}

export interface NewRegistration {
  eventId: number;
  /**
   * An existing person's id, or the person to create. A person whose email (case-insensitively)
   * is already taken is that person: it gains `userId` when it has no user yet.
   */
  person: number | typeof people.$inferInsert;
  /** The initial status (import may give any; the timestamps follow STATUS_STAMPS). */
  status: RegistrationStatus;
  /** Other registration columns (the per-event personal fields, the freedom waiver). */
  values?: Partial<typeof registrations.$inferInsert>;
}

export interface CreatedRegistration {
  personId: number;
  registrationId: number;
  /** False when the person already had a registration for the event (it is returned, locked). */
  created: boolean;
  /** The registration's status (the existing one's when `created` is false). */
  status: RegistrationStatus;
}

async function personFor(
  tx: Tx,
  person: NewRegistration['person'],
): Promise<{ id: number; existed: boolean }> {
  if (typeof person === 'number') return { id: person, existed: true };
  const [inserted] = await tx
    .insert(people)
    .values(person)
    .onConflictDoNothing()
    .returning({ id: people.id });
  if (inserted) return { id: inserted.id, existed: false };
  const [found] = await tx
    .update(people)
    .set({ userId: sql`coalesce(${people.userId}, ${person.userId ?? null})` })
    .where(sql`lower(${people.email}) = lower(${person.email})`)
    .returning({ id: people.id });
  if (!found) throw new Error(`person ${person.email} conflicts but cannot be found`);
  return { id: found.id, existed: true };
}

/**
 * The one creation of a person and their registration (import, an invitation's start): creates
 * or reuses the person, then returns the person's registration for `eventId` (locked `FOR UPDATE`)
 * or creates it with `status` and its timestamps. Returns the ids, whether it was created and its
 * status. The caller audits a creation.
 */
export async function createPersonAndRegistration(
  tx: Tx,
  input: NewRegistration,
): Promise<CreatedRegistration> {
  const person = await personFor(tx, input.person);
  if (person.existed) {
    const [row] = await tx
      .select({ id: registrations.id, status: registrations.status })
      .from(registrations)
      .where(and(eq(registrations.eventId, input.eventId), eq(registrations.personId, person.id)))
      .for('update');
    if (row) return { personId: person.id, registrationId: row.id, created: false, status: row.status };
  }
  const [row] = await tx
    .insert(registrations)
    .values({
      ...input.values,
      eventId: input.eventId,
      personId: person.id,
      ...statusValues(input.status, 'insert'),
    })
    .returning({ id: registrations.id });
  if (!row) throw new Error('registration insert returned no row');
  return { personId: person.id, registrationId: row.id, created: true, status: input.status };
}
