/**
 * The delivery log of an endpoint, redelivery and test pings (docs/webhooks.md "Outbound").
 * Redelivering puts a delivery back to `pending` with a fresh schedule; it keeps its `webhook-id`
 * (the receiver deduplicates by it). A ping is one `ping` message for this endpoint only.
 * Both are audited.
 */
import { sql } from 'drizzle-orm';
import { conflict, notFound } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { emitPing } from './emit.js';
import { lockWebhook, type Owner, selectDeliveries, selectWebhooks } from './webhooks.repo.js';
import type { DeliveryJson, DeliveryListInput } from './webhooks.schemas.js';
import { WEBHOOK_NOT_FOUND, type WebhookCtx } from './webhooks.service.js';

export const DELIVERY_NOT_FOUND = 'Delivery not found';
/** A path `{delivery_id}`: digits only (else 404 like an unknown id). */
export function deliveryId(raw: string): number {
  if (!/^[0-9]{1,15}$/.test(raw)) throw notFound(DELIVERY_NOT_FOUND);
  return Number(raw);
}

export const WEBHOOK_DISABLED = 'This webhook is switched off: switch it on first';

export async function listDeliveries(
  ctx: WebhookCtx,
  owner: Owner,
  id: number,
  query: DeliveryListInput,
): Promise<{ deliveries: DeliveryJson[]; has_more: boolean }> {
  const [webhook] = await selectWebhooks(ctx.db, owner, id);
  if (!webhook) throw notFound(WEBHOOK_NOT_FOUND);
  const limit = query.limit ?? 50;
  const rows = await selectDeliveries(ctx.db, id, {
    limit: limit + 1,
    ...(query.before_id === undefined ? {} : { beforeId: query.before_id }),
  });
  return { deliveries: rows.slice(0, limit), has_more: rows.length > limit };
}

function auditOf(
  ctx: WebhookCtx,
  owner: Owner,
  action: string,
  id: number,
  metadata: Record<string, unknown>,
) {
  return {
    action,
    principal: ctx.access.principal,
    eventId: owner.kind === 'event' ? owner.eventId : null,
    seriesId: owner.seriesId,
    targetType: 'webhook',
    targetId: id,
    metadata: { webhook_id: id, ...metadata },
  };
}

/** POST …/webhooks/{id}/deliveries/{delivery_id}/redeliver → 202 `{delivery}` (pending again). */
export async function redeliver(
  ctx: WebhookCtx,
  owner: Owner,
  id: number,
  deliveryId: number,
): Promise<{ delivery: DeliveryJson }> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockWebhook(tx, owner, id);
    if (!row) throw notFound(WEBHOOK_NOT_FOUND);
    const res = await tx.execute(sql`UPDATE webhook_deliveries
        SET status = 'pending', attempts = 0, next_attempt_at = now(), delivered_at = NULL
      WHERE id = ${deliveryId} AND endpoint_id = ${id} RETURNING id`);
    if (res.rows.length === 0) throw notFound(DELIVERY_NOT_FOUND);
    if (!row.enabled) throw conflict(WEBHOOK_DISABLED);
    await recordAudit(tx, auditOf(ctx, owner, 'webhooks.redeliver', id, { delivery_id: deliveryId }));
    const [delivery] = await selectDeliveries(tx, id, { limit: 1, id: deliveryId });
    return { delivery: delivery! };
  });
}

/** POST …/webhooks/{id}/ping → 202 `{delivery}`: a `ping` message to this endpoint alone. */
export async function ping(ctx: WebhookCtx, owner: Owner, id: number): Promise<{ delivery: DeliveryJson }> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockWebhook(tx, owner, id);
    if (!row) throw notFound(WEBHOOK_NOT_FOUND);
    if (!row.enabled) throw conflict(WEBHOOK_DISABLED);
    const { deliveryId } = await emitPing(tx, id, owner.kind === 'event' ? owner.eventId : null);
    await recordAudit(tx, auditOf(ctx, owner, 'webhooks.ping', id, { delivery_id: deliveryId }));
    const [delivery] = await selectDeliveries(tx, id, { limit: 1, id: deliveryId });
    return { delivery: delivery! };
  });
}
