/**
 * Retention (README "Decisions"): a daily job (`retention-prune`, scheduled by the worker at 03:17
 * UTC) deletes rows older than `MUSTER_RETENTION_DAYS` (default 30):
 * - `webhook_events` rows already processed: they only dedupe replays, and a delivery older than
 *   the 5-minute signature window is refused before the dedupe check anyway; unprocessed rows stay
 *   (their job may still be retrying).
 * - `scan_feed` entries (the live scan stream's durable feed, docs/decisions.md "Check-in"): a stream resumed with a
 *   `Last-Event-ID` older than the window replays only what is still kept.
 * Deletes run in batches of 5,000 rows so no statement holds locks for long; safe to run twice.
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';

const BATCH = 5000;

export interface PruneResult {
  /** Rows deleted per table. */
  webhook_events: number;
  scan_feed: number;
}

async function pruneTable(deps: Deps, table: 'webhook_events' | 'scan_feed', extra: string): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await deps.db.execute(
      sql`DELETE FROM ${sql.raw(table)} WHERE id IN (
            SELECT id FROM ${sql.raw(table)}
             WHERE created_at < now() - make_interval(days => ${deps.config.retentionDays})${sql.raw(extra)}
             LIMIT ${BATCH})`,
    );
    const n = res.rowCount ?? 0;
    total += n;
    if (n < BATCH) return total;
  }
}

/** Deletes what is past the retention window; returns the counts (also logged). */
export async function pruneRetention(deps: Deps): Promise<PruneResult> {
  const result = {
    webhook_events: await pruneTable(deps, 'webhook_events', ' AND processed_at IS NOT NULL'),
    scan_feed: await pruneTable(deps, 'scan_feed', ''),
  };
  deps.log.info({ ...result, retention_days: deps.config.retentionDays }, 'retention prune');
  return result;
}
