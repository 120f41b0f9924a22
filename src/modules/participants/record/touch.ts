/**
 * Marks registrations as changed for the participant syncs (docs/architecture.md "Write model"):
 * notes and group memberships belong to the record but live in their own tables without a touch
 * trigger, so their writers call these. `updated_at` becomes the transaction's `now()` (once per
 * transaction: a row already touched is not written again).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';

/** Bumps registration `registrationId`'s `updated_at`. */
export async function touchRegistration(tx: Tx, registrationId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE registrations SET updated_at = now() WHERE id = ${registrationId} AND updated_at <> now()`,
  );
}

/** Bumps `updated_at` of every registration of event `eventId` in group `groupId`. */
export async function touchGroupMembers(tx: Tx, eventId: number, groupId: number): Promise<void> {
  await tx.execute(
    sql`UPDATE registrations SET updated_at = now()
         WHERE id IN (SELECT registration_id FROM registration_groups WHERE group_id = ${groupId})
           AND event_id = ${eventId} AND updated_at <> now()`,
  );
}
