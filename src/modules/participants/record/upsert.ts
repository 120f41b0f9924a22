/**
 * The one writer of a participant record (import, the participant's own PATCH, the guardian portal
 * and staff edits all call it). Rules: an absent key keeps the stored value, a present one (null
 * where nullable) is written. One-row sections are upserted on their registration_id primary key
 * (a section given as `null` is cleared: accommodation, accessibility and travel rows deleted);
 * consents on (registration, consent_type); travel on (registration, direction) and legs on
 * (travel, position); guardians are matched by email, then name (upsert-lists.ts). `accessibility`
 * and `personal.address` replace the stored object as a whole. Nothing is inserted twice.
 * The person (names, phone, date of birth, address, pronouns) is shared by all of their
 * registrations, so a write through one registration changes what every event sees of them.
 */
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Tx } from '../../../db/client.js';
import {
  accessibilityDetails,
  accommodations,
  consents,
  dietaryDetails,
  emergencyContacts,
  medicalDetails,
  people,
  registrations,
  safeguardingDetails,
} from '../../../db/schema/index.js';
import type { Address } from '../../../db/schema/participants.js';
import {
  ACCOMMODATION_KEYS,
  CONSENT_KEYS,
  DIETARY_DETAIL,
  DIETARY_TOP,
  MEDICAL_DETAIL,
  MEDICAL_TOP,
  SAFEGUARDING_FLAGS,
  SAFEGUARDING_TEXT,
  SAFEGUARDING_TOP,
} from './fields.js';
import type { ImportAddressSchema, ImportItem } from './item.schema.js';
import { all, pick } from './pick.js';
import { contactKey, insertContacts, writeGuardians, writeTravel } from './upsert-lists.js';

const PERSON_KEYS = ['phone', 'pronouns', 'headshot_url', 'chat_user_id'] as const;
const PERSONAL_KEYS = ['legal_first_name', 'legal_last_name', 'preferred_name', 'date_of_birth'] as const;
/** `personal` keys stored on the registration (they differ per event), not on the person. */
export const REGISTRATION_PERSONAL_KEYS = [
  'tshirt_size',
  'engagement_preference',
  'engagement_notes',
] as const;

/** Address with blank keys omitted (spec personal.address). */
function cleanAddress(address: Static<typeof ImportAddressSchema> | null): Address {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(address ?? {})) {
    if (typeof value === 'string' && value.trim()) out[key] = value.trim();
  }
  return out;
}

/** The person columns `item` gives (absent keys left out). */
function personValues(item: ImportItem): Partial<typeof people.$inferInsert> {
  const values: Partial<typeof people.$inferInsert> = {
    ...pick<typeof people.$inferInsert>(item, PERSON_KEYS),
    ...pick<typeof people.$inferInsert>(item.personal, PERSONAL_KEYS),
  };
  if (item.personal?.address !== undefined) values.address = cleanAddress(item.personal.address);
  return values;
}

/** Updates person `personId` with the keys `item` gives (nothing when it gives none). */
export async function updatePerson(tx: Tx, item: ImportItem, personId: number): Promise<void> {
  const values = personValues(item);
  if (Object.keys(values).length) await tx.update(people).set(values).where(eq(people.id, personId));
}

/**
 * The new person `item` describes, for the lifecycle's createPersonAndRegistration (the caller has
 * checked `personal.legal_first_name`/`legal_last_name`).
 */
export function newPerson(item: ImportItem): typeof people.$inferInsert {
  return {
    ...personValues(item),
    email: item.email,
    // Both checked before any write.
    legalFirstName: item.personal!.legal_first_name!,
    legalLastName: item.personal!.legal_last_name!,
  };
}

/**
 * Updates registration `registrationId`'s own columns (the per-event personal fields, the freedom
 * waiver; not its status: the lifecycle writes that). Nothing when `values` is empty.
 */
export async function updateRegistration(
  tx: Tx,
  registrationId: number,
  values: { [K in keyof typeof registrations.$inferInsert]?: (typeof registrations.$inferInsert)[K] | SQL },
): Promise<void> {
  if (Object.keys(values).length)
    await tx.update(registrations).set(values).where(eq(registrations.id, registrationId));
}

/** Writes every section the item mentions for registration `rid`. */
export async function writeSections(tx: Tx, rid: number, item: Omit<ImportItem, 'email'>): Promise<void> {
  if (item.accommodation === null) {
    await tx.delete(accommodations).where(eq(accommodations.registrationId, rid));
  } else if (item.accommodation) {
    const set = pick<typeof accommodations.$inferInsert>(item.accommodation, ACCOMMODATION_KEYS);
    const q = tx.insert(accommodations).values({ ...set, registrationId: rid });
    await (Object.keys(set).length
      ? q.onConflictDoUpdate({ target: accommodations.registrationId, set })
      : q.onConflictDoNothing());
  }

  const medical = {
    ...pick<typeof medicalDetails.$inferInsert>(item, MEDICAL_TOP),
    ...(item.medical_detail === null ? all(MEDICAL_DETAIL, null) : pick(item.medical_detail, MEDICAL_DETAIL)),
  };
  if (Object.keys(medical).length) {
    await tx
      .insert(medicalDetails)
      .values({ ...medical, registrationId: rid })
      .onConflictDoUpdate({ target: medicalDetails.registrationId, set: medical });
  }

  const dietary = {
    ...pick<typeof dietaryDetails.$inferInsert>(item, DIETARY_TOP),
    ...(item.dietary_detail === null ? all(DIETARY_DETAIL, null) : pick(item.dietary_detail, DIETARY_DETAIL)),
  };
  if (Object.keys(dietary).length) {
    await tx
      .insert(dietaryDetails)
      .values({ ...dietary, registrationId: rid })
      .onConflictDoUpdate({ target: dietaryDetails.registrationId, set: dietary });
  }

  const safeguarding = {
    ...pick<typeof safeguardingDetails.$inferInsert>(item, SAFEGUARDING_TOP),
    ...(item.safeguarding_detail === null
      ? { ...all(SAFEGUARDING_TEXT, null), ...all(SAFEGUARDING_FLAGS, false) }
      : pick(item.safeguarding_detail, [...SAFEGUARDING_TEXT, ...SAFEGUARDING_FLAGS])),
  };
  if (Object.keys(safeguarding).length) {
    await tx
      .insert(safeguardingDetails)
      .values({ ...safeguarding, registrationId: rid })
      .onConflictDoUpdate({ target: safeguardingDetails.registrationId, set: safeguarding });
  }

  if (item.accessibility === null) {
    await tx.delete(accessibilityDetails).where(eq(accessibilityDetails.registrationId, rid));
  } else if (item.accessibility) {
    // Free-form object (spec): replaced as a whole, never merged key by key.
    const data = item.accessibility;
    await tx
      .insert(accessibilityDetails)
      .values({ registrationId: rid, data })
      .onConflictDoUpdate({ target: accessibilityDetails.registrationId, set: { data } });
  }

  for (const consent of item.consents ?? []) {
    const set = pick<typeof consents.$inferInsert>(consent, CONSENT_KEYS);
    const q = tx.insert(consents).values({ ...set, registrationId: rid, consentType: consent.consent_type });
    await (Object.keys(set).length
      ? q.onConflictDoUpdate({ target: [consents.registrationId, consents.consentType], set })
      : q.onConflictDoNothing());
  }

  if (item.guardians) await writeGuardians(tx, rid, item.guardians);
  if (item.emergency_contacts) {
    await tx
      .delete(emergencyContacts)
      .where(and(eq(emergencyContacts.registrationId, rid), isNull(emergencyContacts.guardianId)));
    // An exported ParticipantDetail lists guardians' contacts in the top-level list too
    // (docs/decisions.md "Participants API"); those are written under their guardian only, so a re-import does not duplicate them.
    const ofGuardians = new Set(
      (item.guardians ?? []).flatMap((g) => (g.emergency_contacts ?? []).map(contactKey)),
    );
    await insertContacts(
      tx,
      rid,
      null,
      item.emergency_contacts.filter((c) => !ofGuardians.has(contactKey(c))),
    );
  }
  await writeTravel(tx, rid, 'inbound', item.travel_inbound);
  await writeTravel(tx, rid, 'outbound', item.travel_outbound);
}
