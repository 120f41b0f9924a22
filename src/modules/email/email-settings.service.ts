/**
 * The event's reminder switch from the staff emails page (docs/email.md "Reminders"): the same
 * column as the event update route's `email_reminders_enabled` (PATCH /series/{s}/events/{e}),
 * written and audited the same way (`events.update`, the field name in metadata).
 */
import { eq, sql } from 'drizzle-orm';
import { events } from '../../db/schema/index.js';
import type { EventCtx } from '../../deps.js';
import { recordAudit } from '../audit/audit.service.js';

/** Turns the event's reminder emails on or off; a no-op (no audit) when already so. */
export async function setRemindersEnabled(ctx: EventCtx, enabled: boolean): Promise<void> {
  const event = ctx.access.event;
  if (event.emailRemindersEnabled === enabled) return;
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(events)
      .set({ emailRemindersEnabled: enabled, updatedAt: sql`now()` })
      .where(eq(events.id, event.id));
    await recordAudit(tx, {
      action: 'events.update',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'event',
      targetId: event.id,
      metadata: { fields: ['email_reminders_enabled'] },
    });
  });
}
