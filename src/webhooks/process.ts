/**
 * The `webhook-process` job (docs/decisions.md "Messaging"): applies one stored provider event inside a transaction
 * and marks it processed in the same transaction, so a retry after a crash never applies it twice.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { webhookEvents } from '../db/schema/index.js';
import type { Deps } from '../deps.js';
import { applyChatEvent } from './chat.handler.js';
import { applyEmailEvent } from './email.handler.js';
import { applyEsignEvent } from './esign.handler.js';
import { applyHelpdeskEvent } from './helpdesk.handler.js';
import type { WebhookProvider } from './intake.js';

/** A handler applies one event and returns a short outcome recorded on the row (e.g. `linked`, `unmatched`). */
export type EventHandler = (
  deps: Deps,
  tx: Tx,
  event: { eventType: string; payload: Record<string, unknown> },
) => Promise<string>;

const HANDLERS: Record<WebhookProvider, EventHandler> = {
  email: applyEmailEvent,
  helpdesk: applyHelpdeskEvent,
  esign: applyEsignEvent,
  chat: applyChatEvent,
};

export async function processWebhookEvent(deps: Deps, data: { webhook_event_id: number }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // Row lock: two deliveries of the same job never run the handler concurrently.
    const [row] = await tx
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.id, data.webhook_event_id), isNull(webhookEvents.processedAt)))
      .for('update');
    if (!row) return;
    const outcome = await HANDLERS[row.provider](deps, tx, {
      eventType: row.eventType,
      payload: row.payload as Record<string, unknown>,
    });
    await tx
      .update(webhookEvents)
      .set({ processedAt: new Date().toISOString(), outcome })
      .where(eq(webhookEvents.id, row.id));
  });
}
