/**
 * Writers for the list parts of a participant record: emergency contacts (the registration's own or
 * a guardian's, replaced as a whole), guardians (the given list becomes the set, matched by email,
 * then name, keeping their ids) and travel (one row per direction, legs by position).
 */
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { emergencyContacts, guardians, travelLegs, travels } from '../../../db/schema/index.js';
import { GUARDIAN_KEYS, LEG_KEYS, TRAVEL_KEYS } from './fields.js';
import type { ImportContact, ImportGuardian, ImportTravel } from './item.schema.js';
import { pick } from './pick.js';

/** How a contact is recognised as the same one (name case-insensitive, phone without spaces). */
export const contactKey = (c: { name: string; phone: string }) =>
  `${c.name.trim().toLowerCase()}|${c.phone.replace(/\s+/g, '')}`;

/** Inserts `list` as contacts of registration `rid` (of guardian `guardianId` when not null), priority by order. */
export async function insertContacts(
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
export async function writeGuardians(tx: Tx, rid: number, given: ImportGuardian[]): Promise<void> {
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

export async function writeTravel(
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
