/**
 * Fan-out and claim in one statement (docs/webhooks.md "Delivery"). A change writes one outbox row,
 * `webhook_messages` with the ids of the endpoints subscribed at that moment and `awaiting_fanout`
 * (migration 0028). Each call of `claimDue`, in one round trip:
 * 1. claims up to `n` due pending deliveries of enabled endpoints (retries, redeliveries, pings,
 *    and deliveries an earlier fan-out wrote beyond its free slots), oldest due first;
 * 2. locks up to FANOUT_BATCH awaiting messages (`FOR UPDATE SKIP LOCKED`: worker processes share
 *    them), marks them fanned out and inserts one delivery per listed endpoint that is still
 *    enabled (`ON CONFLICT (endpoint_id, message_id) DO NOTHING`); the first of them, up to the
 *    slots step 1 left free, are inserted already claimed (attempt 1), the rest pending and due.
 * The mark and the deliveries commit together, so a message is fanned out exactly once whatever
 * process dies when; a claim moves `next_attempt_at` forward by the lease, so a delivery whose
 * worker died mid-attempt is due again when the lease ends, with the same `webhook-id`.
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import type { Claimed } from './attempt.js';

/** Awaiting messages fanned out per statement at most. */
export const FANOUT_BATCH = 100;

/** Seconds a claim lasts: the attempt's timeout plus room for the result's write. */
export const leaseSeconds = (timeoutMs: number) => Math.ceil(timeoutMs / 1000) + 10;

/** Fans out awaiting messages and claims up to `n` deliveries, with what an attempt needs. */
export async function claimDue(deps: Deps, n: number): Promise<Claimed[]> {
  const lease = sql`now() + make_interval(secs => ${leaseSeconds(deps.config.outboundWebhooks.timeoutMs)}::int)`;
  const res = await deps.db.execute<Claimed>(sql`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
       WHERE d.status = 'pending' AND d.next_attempt_at <= now()
       ORDER BY d.next_attempt_at LIMIT ${n}::int FOR UPDATE OF d SKIP LOCKED),
    again AS (
      UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = ${lease}, last_attempt_at = now()
        FROM due WHERE d.id = due.id
      RETURNING d.id, d.endpoint_id, d.message_id, d.attempts),
    msgs AS (
      SELECT m.id, m.endpoint_ids FROM webhook_messages m WHERE m.awaiting_fanout
       ORDER BY m.id LIMIT ${FANOUT_BATCH}::int FOR UPDATE SKIP LOCKED),
    marked AS (
      UPDATE webhook_messages m SET awaiting_fanout = false FROM msgs WHERE m.id = msgs.id),
    fan AS (
      SELECT e.id AS endpoint_id, msgs.id AS message_id,
             row_number() OVER (ORDER BY msgs.id, e.id) <= ${n}::int - (SELECT count(*) FROM again) AS go
        FROM msgs CROSS JOIN LATERAL unnest(msgs.endpoint_ids) AS e(id)
        JOIN webhook_endpoints w ON w.id = e.id AND w.enabled),
    fresh AS (
      INSERT INTO webhook_deliveries (endpoint_id, message_id, attempts, next_attempt_at, last_attempt_at)
      SELECT endpoint_id, message_id, CASE WHEN go THEN 1 ELSE 0 END,
             CASE WHEN go THEN ${lease} ELSE now() END, CASE WHEN go THEN now() END
        FROM fan ORDER BY message_id, endpoint_id
      ON CONFLICT (endpoint_id, message_id) DO NOTHING
      RETURNING id, endpoint_id, message_id, attempts),
    claimed AS (SELECT * FROM again UNION ALL SELECT * FROM fresh WHERE attempts = 1)
    SELECT c.id::int AS delivery_id, c.endpoint_id, c.attempts, w.url, w.secret_sealed,
           CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_sealed END AS previous_sealed,
           m.msg_id, m.body
      FROM claimed c JOIN webhook_endpoints w ON w.id = c.endpoint_id JOIN webhook_messages m ON m.id = c.message_id`);
  return res.rows;
}
