/**
 * Writes of a validated patch to one registration's record: the participant's own sections
 * (RecordPatch) and a guardian's own part (PortalPatch). Both go through the same section writers
 * as import (upsert.ts); the callers own the transaction, the access check, the state rules and
 * the audit entry.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { registrations } from '../../../db/schema/index.js';
import { pick } from './pick.js';
import type { PortalPatchInput, RecordPatchInput } from './sections.schemas.js';
import { REGISTRATION_PERSONAL_KEYS, updatePerson, updateRegistration, writeSections } from './upsert.js';
import { contactKey, insertContacts } from './upsert-lists.js';

export interface RecordTarget {
  /** registrations.id (participant_event_id). */
  id: number;
  personId: number;
  /** The person's email (the record's key; not changed by a patch). */
  email: string;
}

/**
 * Top-level contacts that repeat one of the guardians' contacts (GET lists both together,
 * docs/decisions.md "Participants API") are not copied into the registration's own list on a round-trip.
 */
async function withoutGuardianContacts(tx: Tx, rid: number, patch: RecordPatchInput) {
  if (!patch.emergency_contacts) return patch.emergency_contacts;
  const res = await tx.execute<{ name: string; phone: string }>(
    sql`SELECT name, phone FROM emergency_contacts WHERE registration_id = ${rid} AND guardian_id IS NOT NULL`,
  );
  const ofGuardians = new Set(res.rows.map(contactKey));
  return patch.emergency_contacts.filter((c) => !ofGuardians.has(contactKey(c)));
}

/**
 * Writes the sections of `patch` (validated by validateRecordPatch) to registration `reg`: the
 * person's fields, the registration's own `personal` fields (its `updated_at` is bumped) and every
 * section given. Names, date of birth, address, phone and pronouns change on all the person's
 * registrations.
 */
export async function writeRecordPatch(tx: Tx, reg: RecordTarget, patch: RecordPatchInput): Promise<void> {
  const item = {
    ...patch,
    email: reg.email,
    emergency_contacts: await withoutGuardianContacts(tx, reg.id, patch),
  };
  await updatePerson(tx, item, reg.personId);
  const own = pick<typeof registrations.$inferInsert>(patch.personal, REGISTRATION_PERSONAL_KEYS);
  await updateRegistration(tx, reg.id, { ...own, updatedAt: sql`now()` });
  await writeSections(tx, reg.id, item);
}

/**
 * Writes a guardian's own part (validated by validatePortalPatch) to guardian `guardianId` of
 * registration `registrationId`: the fields given, plus `also` (the caller's own column updates),
 * and, when `emergency_contacts` is given, that guardian's contacts replaced by the list.
 */
export async function writeGuardianPatch(
  tx: Tx,
  target: { guardianId: number; registrationId: number },
  patch: PortalPatchInput,
  also: SQL[] = [],
): Promise<void> {
  const { emergency_contacts: contacts, ...fields } = patch;
  const set = Object.entries(fields).map(([k, v]) => sql`${sql.identifier(k)} = ${v}`);
  if (set.length + also.length > 0) {
    await tx.execute(
      sql`UPDATE guardians SET ${sql.join([...set, ...also], sql`, `)} WHERE id = ${target.guardianId}`,
    );
  }
  if (contacts) {
    await tx.execute(sql`DELETE FROM emergency_contacts WHERE guardian_id = ${target.guardianId}`);
    await insertContacts(tx, target.registrationId, target.guardianId, contacts);
  }
}
