/** SQL of the outbound webhook endpoints and their delivery log (docs/webhooks.md "Outbound"). */
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import { isoSql } from '../../lib/time.js';
import type { Owner } from './owner.js';
import type { DeliveryJson, WebhookJson } from './webhooks.schemas.js';

export type { Owner };

export const ownerWhere = (owner: Owner): SQL =>
  owner.kind === 'event' ? sql`w.event_id = ${owner.eventId}` : sql`w.series_id = ${owner.seriesId}::uuid`;

const WEBHOOK_JSON = sql`json_build_object(
  'id', w.id, 'url', w.url, 'description', w.description, 'event_types', to_json(w.event_types),
  'enabled', w.enabled, 'disabled_reason', w.disabled_reason, 'failing_since', ${isoSql('w.failing_since')},
  'previous_secret_expires_at', CASE WHEN w.previous_secret_expires_at > now()
    THEN ${isoSql('w.previous_secret_expires_at')} END,
  'created_at', ${isoSql('w.created_at')}, 'updated_at', ${isoSql('w.updated_at')})`;

export async function selectWebhooks(db: Db | Tx, owner: Owner, id?: number): Promise<WebhookJson[]> {
  const one = id === undefined ? sql`` : sql` AND w.id = ${id}`;
  const res = await db.execute<{ j: WebhookJson }>(
    sql`SELECT ${WEBHOOK_JSON} AS j FROM webhook_endpoints w WHERE ${ownerWhere(owner)}${one} ORDER BY w.id`,
  );
  return res.rows.map((r) => r.j);
}

export async function countWebhooks(tx: Tx, owner: Owner): Promise<number> {
  const res = await tx.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM webhook_endpoints w WHERE ${ownerWhere(owner)}`,
  );
  return one(res.rows).n;
}

export async function insertWebhook(
  tx: Tx,
  owner: Owner,
  v: { url: string; description: string; eventTypes: string[]; secretSealed: string; userId: number | null },
): Promise<number> {
  const res = await tx.execute<{ id: number }>(sql`
    INSERT INTO webhook_endpoints (event_id, series_id, url, description, event_types, secret_sealed, created_by_user_id)
    VALUES (${owner.kind === 'event' ? owner.eventId : null}, ${owner.kind === 'series' ? owner.seriesId : null},
            ${v.url}, ${v.description}, ${sql`ARRAY[${sql.join(
              v.eventTypes.map((t) => sql`${t}`),
              sql`, `,
            )}]::text[]`}, ${v.secretSealed}, ${v.userId})
    RETURNING id`);
  return one(res.rows).id;
}

/** Locks and returns one endpoint's stored secrets and state, or undefined. */
export async function lockWebhook(
  tx: Tx,
  owner: Owner,
  id: number,
): Promise<{ id: number; url: string; enabled: boolean; secret_sealed: string } | undefined> {
  const res = await tx.execute<{ id: number; url: string; enabled: boolean; secret_sealed: string }>(
    sql`SELECT w.id, w.url, w.enabled, w.secret_sealed FROM webhook_endpoints w
         WHERE ${ownerWhere(owner)} AND w.id = ${id} FOR UPDATE`,
  );
  return res.rows[0];
}

const DELIVERY_JSON = sql`json_build_object(
  'id', d.id, 'webhook_id', m.msg_id, 'type', m.type, 'status', d.status, 'attempts', d.attempts,
  'next_attempt_at', CASE WHEN d.status = 'pending' THEN ${isoSql('d.next_attempt_at')} END,
  'delivered_at', ${isoSql('d.delivered_at')}, 'created_at', ${isoSql('d.created_at')},
  'log', COALESCE((SELECT json_agg(json_build_object(
      'attempt', a.attempt, 'status_code', a.status_code, 'duration_ms', a.duration_ms,
      'response_excerpt', a.response_excerpt, 'error', a.error, 'created_at', ${isoSql('a.created_at')})
      ORDER BY a.id DESC)
    FROM (SELECT * FROM webhook_attempts a0 WHERE a0.delivery_id = d.id ORDER BY a0.id DESC LIMIT 10) a), '[]'::json))`;

export async function selectDeliveries(
  db: Db | Tx,
  endpointId: number,
  opts: { limit: number; beforeId?: number; id?: number },
): Promise<DeliveryJson[]> {
  const before = opts.beforeId === undefined ? sql`` : sql` AND d.id < ${opts.beforeId}`;
  const one = opts.id === undefined ? sql`` : sql` AND d.id = ${opts.id}`;
  const res = await db.execute<{ j: DeliveryJson }>(sql`
    SELECT ${DELIVERY_JSON} AS j FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
     WHERE d.endpoint_id = ${endpointId}${before}${one} ORDER BY d.id DESC LIMIT ${opts.limit}`);
  return res.rows.map((r) => r.j);
}
