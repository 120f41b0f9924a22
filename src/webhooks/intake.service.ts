/**
 * Accepting a verified provider event (docs/decisions.md "Messaging"): one transaction inserts the dedupe row
 * (unique provider + event id) and enqueues the `webhook-process` job, so a replay, or a concurrent
 * duplicate delivery, adds neither a row nor a job.
 */
import { webhookEvents } from '../db/schema/index.js';
import type { Deps } from '../deps.js';
import type { Intake, WebhookProvider } from './intake.js';

export async function acceptEvent(
  deps: Pick<Deps, 'db' | 'jobs'>,
  provider: WebhookProvider,
  intake: Intake,
): Promise<{ received: true; duplicate: boolean }> {
  return deps.db.transaction(async (tx) => {
    const rows = await tx
      .insert(webhookEvents)
      .values({ provider, eventId: intake.eventId, eventType: intake.eventType, payload: intake.payload })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    const row = rows[0];
    if (!row) return { received: true, duplicate: true };
    await deps.jobs.enqueue(tx, 'webhook-process', { webhook_event_id: row.id });
    return { received: true, duplicate: false };
  });
}
