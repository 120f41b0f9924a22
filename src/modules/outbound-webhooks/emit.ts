/**
 * Emitting outbound webhook messages from application code, inside the caller's transaction (the
 * outbox: the message exists if and only if the change committed). Row triggers emit the other
 * types (migrations 0020_outbound_webhooks.sql, 0028_outbound_webhook_fanout.sql); both go through
 * the SQL function `muster_webhook_emit(event_id, type, data)`, which writes one message listing the
 * subscribed endpoints, awaiting fan-out into deliveries by the dispatcher (claim.ts), and nothing
 * when no enabled endpoint of the event or its series subscribes to the type. docs/webhooks.md "Outbound".
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { WebhookEventType } from './event-types.js';

/** Writes one message of `type` about event `eventId` (ids only in `data`), awaiting fan-out. */
export async function emitWebhook(
  tx: Tx,
  eventId: number,
  type: WebhookEventType,
  data: Record<string, string | number | boolean | null | string[]>,
): Promise<void> {
  await tx.execute(sql`SELECT muster_webhook_emit(${eventId}::int, ${type}, ${JSON.stringify(data)}::jsonb)`);
}

/**
 * A `ping` message for one endpoint only (whatever types it subscribes to) and its one delivery,
 * written here (not awaiting fan-out); returns its `webhook-id` and the delivery's id.
 */
export async function emitPing(
  tx: Tx,
  endpointId: number,
  eventId: number | null,
): Promise<{ msgId: string; deliveryId: number }> {
  const res = await tx.execute<{ msg_id: string; delivery_id: number }>(sql`
    WITH m AS (
      INSERT INTO webhook_messages (msg_id, event_id, type, body, endpoint_ids)
      VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), ${eventId}, 'ping',
              jsonb_build_object('type', 'ping',
                'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                'data', jsonb_build_object('event_id', ${eventId}::int, 'webhook_id', ${endpointId}::int))::text,
              ARRAY[${endpointId}::int])
      RETURNING id, msg_id)
    INSERT INTO webhook_deliveries (endpoint_id, message_id)
    SELECT ${endpointId}, m.id FROM m
    RETURNING id AS delivery_id, (SELECT msg_id FROM m) AS msg_id`);
  const row = one(res.rows);
  return { msgId: row.msg_id, deliveryId: Number(row.delivery_id) };
}
