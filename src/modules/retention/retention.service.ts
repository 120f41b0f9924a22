/**
 * Retention (README "Decisions"): a daily job (`retention-prune`, scheduled by the worker at 03:17
 * UTC) deletes rows older than `MUSTER_RETENTION_DAYS` (default 30):
 * - `webhook_events` rows already processed: they only dedupe replays, and a delivery older than
 *   the 5-minute signature window is refused before the dedupe check anyway; unprocessed rows stay
 *   (their job may still be retrying).
 * - `scan_feed` entries (the live scan stream's durable feed, docs/decisions.md "Check-in"): a stream resumed with a
 *   `Last-Event-ID` older than the window replays only what is still kept.
 * - `participant_json` rows (the sync list's cache, docs/performance.md "Participant JSON cache")
 *   that no read serves: fences (no text) and texts no longer current (the registration changed
 *   or was deleted), once a day old, when no read that could still race them is running. A fence
 *   of a registration deleted within the day stays until the next run.
 * Deletes run in batches of 5,000 rows so no statement holds locks for long; safe to run twice.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';

const BATCH = 5000;

export interface PruneResult {
  /** Rows deleted per table. */
  webhook_events: number;
  scan_feed: number;
  participant_json: number;
}

async function inBatches(deps: Deps, statement: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const n = (await deps.db.execute(statement)).rowCount ?? 0;
    total += n;
    if (n < BATCH) return total;
  }
}

function pruneTable(deps: Deps, table: 'webhook_events' | 'scan_feed', extra: string): Promise<number> {
  return inBatches(
    deps,
    sql`DELETE FROM ${sql.raw(table)} WHERE id IN (
          SELECT id FROM ${sql.raw(table)}
           WHERE created_at < now() - make_interval(days => ${deps.config.retentionDays})${sql.raw(extra)}
           LIMIT ${BATCH})`,
  );
}

/** Cached participant texts no read serves, a day old (fences and texts of changed or deleted registrations). */
function pruneParticipantJson(deps: Deps): Promise<number> {
  return inBatches(
    deps,
    sql`DELETE FROM participant_json WHERE (registration_id, tier) IN (
          SELECT c.registration_id, c.tier FROM participant_json c
           WHERE c.updated_at < now() - interval '1 day'
             AND (c.version = '' OR NOT EXISTS (SELECT 1 FROM registrations r
                                                 WHERE r.id = c.registration_id AND r.updated_at = c.updated_at))
           LIMIT ${BATCH})`,
  );
}

/** Deletes what is past the retention window; returns the counts (also logged). */
export async function pruneRetention(deps: Deps): Promise<PruneResult> {
  const result = {
    webhook_events: await pruneTable(deps, 'webhook_events', ' AND processed_at IS NOT NULL'),
    scan_feed: await pruneTable(deps, 'scan_feed', ''),
    participant_json: await pruneParticipantJson(deps),
  };
  deps.log.info({ ...result, retention_days: deps.config.retentionDays }, 'retention prune');
  return result;
}
