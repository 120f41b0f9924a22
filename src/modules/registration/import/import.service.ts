/**
 * Participant import (docs/decisions.md "Import"): `muster import --event <slug> <file>` and the demo seed
 * share this one code path.
 *
 * Idempotent by email (trimmed, lowercased): the person (people, unique lower(email)) is created or
 * updated, then the registration (unique event + person), then each section the item mentions.
 * Re-importing the same file updates rows in place and never duplicates anything.
 *
 * What an item's keys mean:
 * - absent key: the stored value is kept (a sparse CSV never wipes data it does not carry);
 * - key present (null allowed where nullable): the value is written;
 * - object sections (`personal`, `accommodation`, `medical_detail`, `dietary_detail`,
 *   `safeguarding_detail`, travel): one row per registration, upserted with the keys given; a
 *   section given as `null` is cleared (`accommodation`, `accessibility` and travel rows deleted);
 * - `accessibility` (free-form) and `personal.address` replace the stored object as a whole;
 * - `consents`: one row per `consent_type`, upserted; consents of other types are kept;
 * - `guardians`: the given list becomes the set (matched by email, then name, keeping their ids;
 *   others deleted); a guardian's `emergency_contacts`, the registration's own
 *   `emergency_contacts` and a travel's `legs` (by position) are replaced by the given list
 *   (top-level contacts that repeat a given guardian's contact, as in an export, are skipped);
 * - phones are stored in E.164, read with the event's country as the default region
 *   (import.phones.ts); a number that cannot be read is a 422 naming the item and the field;
 * - `status` defaults to `invited` for a new registration; an existing one keeps its status
 *   unless the item gives one.
 * The person (names, phone, date of birth, address…) is shared by all of their registrations, so
 * importing into one event updates what every event sees of that person.
 */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { banEmails, bans, events, people, registrations } from '../../../db/schema/index.js';
import { notFound } from '../../../lib/errors.js';
import { regionOf } from '../../../lib/phone.js';
import { normaliseItemPhones } from '../../participants/import.phones.js';
import { importError, validateImportItems } from '../../participants/import.validate.js';
import type { ImportItem } from '../../participants/record/item.schema.js';
import { pick } from '../../participants/record/pick.js';
import type { Problem } from '../../participants/record/problems.js';
import {
  newPerson,
  REGISTRATION_PERSONAL_KEYS,
  updatePerson,
  updateRegistration,
  writeSections,
} from '../../participants/record/upsert.js';
import { createPersonAndRegistration, writeStatus } from '../lifecycle/writes.js';

export { parseImportFile } from '../../participants/import.parse.js';
export { validateImportItems } from '../../participants/import.validate.js';
export { type ImportItem, ImportItemSchema } from '../../participants/record/item.schema.js';

export interface ImportResult {
  /** Registrations created by this import. */
  created: number;
  /** Registrations that already existed and were updated. */
  updated: number;
  /** participant_event_id of every item, in item order. */
  registrationIds: number[];
}

/**
 * Imports participants into event `eventId` inside the caller's transaction.
 * `items` are validated first (ImportItemSchema; plain JSON may be passed). Throws ApiError 404
 * when the event does not exist and 422 (naming item index, email and field) for invalid items
 * (phones that are not phone numbers included),
 * a new person without `personal.legal_first_name`/`legal_last_name`, or a banned email; nothing
 * is written in that case. Returns counts and the registration ids in item order.
 */
export async function importParticipants(
  tx: Tx,
  eventId: number,
  input: ImportItem[],
): Promise<ImportResult> {
  const items = validateImportItems(input);
  const [event] = await tx
    .select({ id: events.id, country: events.locationCountry })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) throw notFound('Event not found');
  const phoneProblems = normaliseItemPhones(items, regionOf(event.country));
  if (phoneProblems.length > 0) throw importError(phoneProblems);

  const emails = items.map((i) => i.email);
  const existingPeople = new Map<string, number>();
  const banned = new Set<string>();
  for (let i = 0; i < emails.length; i += 5000) {
    const chunk = emails.slice(i, i + 5000);
    const found = await tx
      .select({ id: people.id, email: sql<string>`lower(${people.email})` })
      .from(people)
      .where(inArray(sql`lower(${people.email})`, chunk));
    for (const p of found) existingPeople.set(p.email, p.id);
    const bannedRows = await tx
      .select({ email: banEmails.email })
      .from(banEmails)
      .innerJoin(bans, eq(bans.id, banEmails.banId))
      .where(
        and(
          inArray(banEmails.email, chunk),
          isNull(bans.revokedAt),
          or(isNull(bans.expiresAt), sql`${bans.expiresAt} > now()`),
        ),
      );
    for (const b of bannedRows) banned.add(b.email);
  }
  const problems: Problem[] = [];
  items.forEach((item, index) => {
    if (banned.has(item.email))
      problems.push({
        field: `items[${index}].email`,
        message: `items[${index}] (${item.email}): this email is banned from events`,
      });
    else if (
      !existingPeople.has(item.email) &&
      !(item.personal?.legal_first_name && item.personal.legal_last_name)
    ) {
      const missing = item.personal?.legal_first_name ? 'legal_last_name' : 'legal_first_name';
      problems.push({
        field: `items[${index}].personal.${missing}`,
        message: `items[${index}] (${item.email}): personal.legal_first_name and personal.legal_last_name are required for a new participant`,
      });
    }
  });
  if (problems.length > 0) throw importError(problems);

  const existingRegs = new Map<number, { id: number; status: string }>();
  const personIds = [...existingPeople.values()];
  for (let i = 0; i < personIds.length; i += 5000) {
    const rows = await tx
      .select({ id: registrations.id, personId: registrations.personId, status: registrations.status })
      .from(registrations)
      .where(
        and(
          eq(registrations.eventId, eventId),
          inArray(registrations.personId, personIds.slice(i, i + 5000)),
        ),
      );
    for (const r of rows) existingRegs.set(r.personId, r);
  }

  const result: ImportResult = { created: 0, updated: 0, registrationIds: [] };
  for (const item of items) {
    const knownId = existingPeople.get(item.email);
    if (knownId !== undefined) await updatePerson(tx, item, knownId);
    const existing = knownId === undefined ? undefined : existingRegs.get(knownId);
    const { registrationId: rid } = await upsertRegistration(
      tx,
      eventId,
      knownId ?? newPerson(item),
      item,
      existing,
    );
    if (existing) result.updated++;
    else result.created++;
    result.registrationIds.push(rid);
    await writeSections(tx, rid, item);
  }
  return result;
}

async function upsertRegistration(
  tx: Tx,
  eventId: number,
  person: number | typeof people.$inferInsert,
  item: ImportItem,
  existing: { id: number; status: string } | undefined,
): Promise<{ personId: number; registrationId: number }> {
  const values: Partial<typeof registrations.$inferInsert> = pick(item.personal, REGISTRATION_PERSONAL_KEYS);
  if (item.freedom_waiver_granted !== undefined) values.freedomWaiverGranted = item.freedom_waiver_granted;
  const status = item.status;
  if (existing && typeof person === 'number') {
    await updateRegistration(tx, existing.id, values);
    // The status the file gives, with the lifecycle's timestamps (docs/registration.md "Timestamps").
    if (status !== undefined && status !== existing.status) await writeStatus(tx, existing.id, status);
    return { personId: person, registrationId: existing.id };
  }
  return createPersonAndRegistration(tx, { eventId, person, status: status ?? 'invited', values });
}
