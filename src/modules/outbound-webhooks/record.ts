/**
 * Recording delivery attempts in batches (docs/webhooks.md "Delivery"): the outcomes of attempts
 * that finished within a few milliseconds of each other are written in one statement: a log row
 * per attempt (`webhook_attempts`), each delivery's new state (`succeeded`, the next attempt per the
 * retry schedule, or `failed` after the last; only if it is still the claimed attempt), and each
 * endpoint's failure run from its latest outcome in the batch. An endpoint failing for longer than
 * MUSTER_WEBHOOKS_DISABLE_AFTER_HOURS is then switched off (disable.ts).
 * An outcome not yet written when the process dies is lost with it; the claim's lease then makes
 * the delivery due again, sent once more with the same `webhook-id` (at least once, as before).
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import type { Outcome } from './attempt.js';
import { disableIfFailingTooLong } from './disable.js';

/** Outcomes written per statement at most; a full batch is written at once. */
export const BATCH = 100;
/** Milliseconds an outcome waits for others before its batch is written. */
export const LINGER_MS = 5;

/** Writes outcomes in one statement, then switches off endpoints failing for too long. */
export async function recordOutcomes(deps: Deps, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map((o, i) => ({
    ord: i,
    delivery_id: o.row.delivery_id,
    endpoint_id: o.row.endpoint_id,
    attempt: o.row.attempts,
    status_code: o.result.status,
    duration_ms: o.result.durationMs,
    excerpt: o.result.excerpt,
    error: o.result.error,
    ok: o.ok,
    next: o.next,
    delay: o.delaySeconds,
  }));
  await deps.db.execute(sql`
    WITH r AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(ord int, delivery_id bigint,
        endpoint_id int, attempt int, status_code int, duration_ms int, excerpt text, error text, ok boolean,
        next text, delay double precision)),
    a AS (
      INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, status_code, duration_ms, response_excerpt, error)
      SELECT delivery_id, endpoint_id, attempt, status_code, duration_ms, excerpt, error FROM r ORDER BY ord),
    d AS (
      UPDATE webhook_deliveries d
         SET status = r.next,
             delivered_at = CASE WHEN r.ok THEN now() END,
             next_attempt_at = CASE WHEN r.next = 'pending'
               THEN now() + make_interval(secs => r.delay) ELSE d.next_attempt_at END
        FROM r
       WHERE d.id = r.delivery_id AND d.status = 'pending' AND d.attempts = r.attempt),
    latest AS (SELECT DISTINCT ON (endpoint_id) endpoint_id, ok FROM r ORDER BY endpoint_id, ord DESC)
    UPDATE webhook_endpoints w
       SET failing_since = CASE WHEN latest.ok THEN NULL ELSE now() END
      FROM latest
     WHERE w.id = latest.endpoint_id AND (w.failing_since IS NOT NULL) = latest.ok`);
  const failing = new Set(outcomes.filter((o) => !o.ok).map((o) => o.row.endpoint_id));
  for (const endpointId of failing) await disableIfFailingTooLong(deps, endpointId);
}

/** Collects outcomes and writes them in batches, one statement at a time. */
export interface Recorder {
  add(outcome: Outcome): void;
  /** Resolves when every outcome added so far is written (or its write failed and was logged). */
  drain(): Promise<void>;
}

export function createRecorder(deps: Deps): Recorder {
  let pending: Outcome[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    writing = writing.then(() =>
      recordOutcomes(deps, batch).catch((error) =>
        deps.log.error(
          { err: error, deliveries: batch.length },
          'webhook dispatcher: recording attempts failed',
        ),
      ),
    );
    return writing;
  };
  return {
    add(outcome) {
      pending.push(outcome);
      if (pending.length >= BATCH) void flush();
      else timer ??= setTimeout(flush, LINGER_MS);
    },
    async drain() {
      await flush();
    },
  };
}
