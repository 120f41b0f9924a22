/**
 * Writers for the sections of one registration during an import (see importParticipants for the
 * rules). One-row sections are upserted on their registration_id primary key; consents on
 * (registration, consent_type); travel on (registration, direction) and legs on (travel, position);
 * guardians are matched by email, then name. Nothing is ever inserted twice for the same item.
 */
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import {
  accessibilityDetails,
  accommodations,
  consents,
  dietaryDetails,
  emergencyContacts,
  guardians,
  medicalDetails,
  safeguardingDetails,
  travelLegs,
  travels,
} from '../../../db/schema/index.js';
import type { ImportContact, ImportGuardian, ImportItem, ImportTravel } from '../import.schema.js';
import {
  ACCOMMODATION_KEYS,
  CONSENT_KEYS,
  DIETARY_DETAIL,
  DIETARY_TOP,
  GUARDIAN_KEYS,
  LEG_KEYS,
  MEDICAL_DETAIL,
  MEDICAL_TOP,
  SAFEGUARDING_FLAGS,
  SAFEGUARDING_TEXT,
  SAFEGUARDING_TOP,
  TRAVEL_KEYS,
} from './fields.js';

type Values = Record<string, unknown>;

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The keys of `src` that are present (not undefined) among `keys`, renamed to camelCase columns. */
export function pick<T>(src: object | null | undefined, keys: readonly string[]): Partial<T> {
  const out: Values = {};
  if (!src) return out as Partial<T>;
  for (const key of keys) {
    const value = (src as Values)[key];
    if (value !== undefined) out[camel(key)] = value;
  }
  return out as Partial<T>;
}

/** Every key of `keys` set to `value` (clearing a section given as null). */
function all<T>(keys: readonly string[], value: unknown): Partial<T> {
  return Object.fromEntries(keys.map((k) => [camel(k), value])) as Partial<T>;
}

/** Writes every section the item mentions for registration `rid`. */
export async function writeSections(tx: Tx, rid: number, item: ImportItem): Promise<void> {
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
    const data = item.accessibility as Record<string, unknown>;
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
    // An exported ParticipantDetail lists guardians' contacts in the top-level list too (contract
    // §4); those are written under their guardian only, so a re-import does not duplicate them.
    const key = (c: ImportContact) => `${c.name.trim().toLowerCase()}|${c.phone.replace(/\s+/g, '')}`;
    const ofGuardians = new Set((item.guardians ?? []).flatMap((g) => (g.emergency_contacts ?? []).map(key)));
    await insertContacts(
      tx,
      rid,
      null,
      item.emergency_contacts.filter((c) => !ofGuardians.has(key(c))),
    );
  }
  await writeTravel(tx, rid, 'inbound', item.travel_inbound);
  await writeTravel(tx, rid, 'outbound', item.travel_outbound);
}

async function insertContacts(
  tx: Tx,
  rid: number,
  guardianId: number | null,
  list: ImportContact[],
): Promise<void> {
  if (list.length === 0) return;
  await tx.insert(emergencyContacts).values(
    list.map((c, i) => ({
      registrationId: rid,
      guardianId,
      name: c.name,
      phone: c.phone,
      email: c.email ?? null,
      relationship: c.relationship,
      priority: c.priority ?? i + 1,
    })),
  );
}

/** Replaces the guardian set: matched guardians (by email, then name) keep their id; the rest go. */
async function writeGuardians(tx: Tx, rid: number, given: ImportGuardian[]): Promise<void> {
  const existing = await tx
    .select({ id: guardians.id, email: guardians.email, name: guardians.name })
    .from(guardians)
    .where(eq(guardians.registrationId, rid));
  const unmatched = new Map(existing.map((g) => [g.id, g]));
  const norm = (s: string | null | undefined) => s?.trim().toLowerCase() || null;
  for (const g of given) {
    const email = norm(g.email);
    const match =
      [...unmatched.values()].find((e) => email !== null && norm(e.email) === email) ??
      [...unmatched.values()].find((e) => !email && !norm(e.email) && norm(e.name) === norm(g.name));
    const set = {
      ...pick<typeof guardians.$inferInsert>(g, GUARDIAN_KEYS),
      ...(g.email !== undefined ? { email } : {}),
    };
    let id: number;
    if (match) {
      unmatched.delete(match.id);
      id = match.id;
      if (Object.keys(set).length) await tx.update(guardians).set(set).where(eq(guardians.id, id));
    } else {
      const [row] = await tx
        .insert(guardians)
        .values({ ...set, registrationId: rid })
        .returning({ id: guardians.id });
      id = row!.id;
    }
    if (g.emergency_contacts) {
      if (match) await tx.delete(emergencyContacts).where(eq(emergencyContacts.guardianId, id));
      await insertContacts(tx, rid, id, g.emergency_contacts);
    }
  }
  if (unmatched.size) await tx.delete(guardians).where(inArray(guardians.id, [...unmatched.keys()]));
}

async function writeTravel(
  tx: Tx,
  rid: number,
  direction: 'inbound' | 'outbound',
  travel: ImportTravel | null | undefined,
): Promise<void> {
  if (travel === undefined) return;
  if (travel === null) {
    await tx.delete(travels).where(and(eq(travels.registrationId, rid), eq(travels.direction, direction)));
    return;
  }
  const set = pick<typeof travels.$inferInsert>(travel, TRAVEL_KEYS);
  const [row] = await tx
    .insert(travels)
    .values({ ...set, mode: travel.mode, registrationId: rid, direction })
    .onConflictDoUpdate({ target: [travels.registrationId, travels.direction], set })
    .returning({ id: travels.id });
  const travelId = row!.id;
  if (!travel.legs) return;
  for (const [i, leg] of travel.legs.entries()) {
    const legSet = pick<typeof travelLegs.$inferInsert>(leg, LEG_KEYS);
    // Deprecated alias (spec TravelLeg): used only when the canonical field is absent.
    if (legSet.travelPickedUpAt === undefined && leg.airport_picked_up_at !== undefined) {
      legSet.travelPickedUpAt = leg.airport_picked_up_at;
    }
    const q = tx.insert(travelLegs).values({ ...legSet, travelId, position: i + 1 });
    await (Object.keys(legSet).length
      ? q.onConflictDoUpdate({ target: [travelLegs.travelId, travelLegs.position], set: legSet })
      : q.onConflictDoNothing());
  }
  await tx
    .delete(travelLegs)
    .where(and(eq(travelLegs.travelId, travelId), gt(travelLegs.position, travel.legs.length)));
}
