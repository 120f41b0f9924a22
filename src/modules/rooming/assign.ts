/**
 * Writes who sleeps where: a registration's `accommodation.assigned_room` through the participant
 * record writer (docs/participant-record.md), one audit entry per person (`rooming.assign`, in
 * the registration's history; metadata: room id, the field, how, and whether a rule was
 * overridden, never names or reasons) and one `registration.updated` webhook (sections
 * `['accommodation']`, as a record edit sends; docs/webhooks.md "Outbound").
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { UserEventCtx } from '../../deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { emitWebhook } from '../outbound-webhooks/emit.js';
import type { ImportItem } from '../participants/record/item.schema.js';
import { writeSections } from '../participants/record/upsert.js';

export interface RoomWrite {
  registrationId: number;
  room: { id: number; name: string } | null;
  by: 'rooming_apply' | 'room_rename';
  /** Rules broken by this assignment, kept because a reason was given. */
  override?: { reason: string; rules: string[] };
}

export async function writeAssignedRoom(ctx: UserEventCtx, tx: Tx, write: RoomWrite): Promise<void> {
  const item: Omit<ImportItem, 'email'> = { accommodation: { assigned_room: write.room?.name ?? null } };
  await writeSections(tx, write.registrationId, item);
  await tx.execute(sql`DELETE FROM rooming_overrides WHERE registration_id = ${write.registrationId}`);
  if (write.override && write.room) {
    await tx.execute(
      sql`INSERT INTO rooming_overrides (registration_id, room_id, reason, rules, by_user_id)
          VALUES (${write.registrationId}, ${write.room.id}, ${write.override.reason},
                  ${JSON.stringify(write.override.rules)}::jsonb, ${ctx.access.principal.user.id})`,
    );
  }
  await recordAudit(tx, {
    action: 'rooming.assign',
    principal: ctx.access.principal,
    eventId: ctx.access.event.id,
    targetType: 'registration',
    targetId: write.registrationId,
    metadata: {
      room_id: write.room?.id ?? null,
      fields: ['accommodation.assigned_room'],
      by: write.by,
      override: write.override !== undefined,
    },
  });
  await emitWebhook(tx, ctx.access.event.id, 'registration.updated', {
    participant_event_id: write.registrationId,
    sections: ['accommodation'],
  });
}
