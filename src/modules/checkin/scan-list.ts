/**
 * GET /events/{e}/scans (docs/decisions.md "Check-in"): the scan feed for scanner devices.
 *
 * Rows are read in (created_at, id) order. `synced_at` is the cursor to pass back as `since`, and
 * it is always a plain ISO 8601 UTC timestamp with microseconds (the mobile app stores it verbatim
 * and stops when it does not advance):
 * - no `has_more`: the sync high-water mark, which stays below the start of every transaction
 *   still open (participants.repo.ts), so a scan committed later — even one whose transaction
 *   started earlier than another's that committed first — has `created_at` above it;
 * - `has_more`: the `created_at` of the page's last scan. Scans recorded in one transaction (a
 *   group-commit batch, drizzle/0007) share one `created_at`, so a page never ends inside such an
 *   instant: it ends before the first scan of the instant that would be split, and when a whole
 *   page is one instant, the page holds every scan of that instant (more than the page size).
 *   `created_at > since` then resumes exactly after the page: no scan is skipped or repeated.
 */
import { type SQL, sql } from 'drizzle-orm';
import { syncWatermark } from '../../db/watermark.js';
import type { EventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { isIsoDateTime } from '../../lib/time.js';
import { LIST_NEWEST_LIMIT, LIST_SINCE_LIMIT, type ScanJson, type ScanListInput } from './checkin.schemas.js';
import { checkContextFilter } from './contexts.js';
import { SCAN_COLUMNS, SCAN_FROM, type ScanRow, scanJson } from './scan-row.js';

export const SINCE_INVALID = 'since must be an ISO 8601 date-time, e.g. a previous synced_at';

/** A position in (created_at, id) order. */
export interface ScanCursor {
  at: string;
  /** Last id delivered at exactly `at`, or null for "everything at `at` was delivered". */
  id: number | null;
}

/**
 * Parses `since`: an ISO 8601 timestamp. `<timestamp>_<id>` (a compound cursor an earlier version
 * returned) is still read, so a device that stored one resumes where it was. 422 otherwise.
 */
export function parseSince(since: string): ScanCursor {
  const m = /^(.+?)(?:_([0-9]{1,15}))?$/.exec(since);
  if (!m || !isIsoDateTime(m[1]!)) throw unprocessable(SINCE_INVALID);
  return { at: m[1]!, id: m[2] === undefined ? null : Number(m[2]) };
}

type ScanPage = { scans: ScanJson[]; has_more: boolean; synced_at: string };

function afterCursor(c: ScanCursor): SQL {
  if (c.id === null) return sql`s.created_at > ${c.at}::timestamptz`;
  return sql`s.created_at >= ${c.at}::timestamptz AND (s.created_at > ${c.at}::timestamptz OR s.id > ${c.id})`;
}

/** GET /events/{e}/scans → `{scans, has_more, synced_at}` (docs/decisions.md "Check-in"). */
export async function listScans(ctx: EventCtx, input: ScanListInput): Promise<ScanPage> {
  const event = ctx.access.event;
  const cursor = input.since === undefined ? undefined : parseSince(input.since);
  await checkContextFilter(ctx.db, event.id, input.scan_context_id);
  const contextFilter =
    input.scan_context_id === undefined ? sql`` : sql` AND s.scan_context_id = ${input.scan_context_id}`;
  const watermark = await syncWatermark(ctx.db);
  if (cursor === undefined) {
    const res = await ctx.db.execute<ScanRow>(
      sql`SELECT ${SCAN_COLUMNS} FROM ${SCAN_FROM}
           WHERE s.event_id = ${event.id}${contextFilter}
           ORDER BY s.scanned_at DESC, s.id DESC LIMIT ${LIST_NEWEST_LIMIT + 1}`,
    );
    const has_more = res.rows.length > LIST_NEWEST_LIMIT;
    return { scans: res.rows.slice(0, LIST_NEWEST_LIMIT).map(scanJson), has_more, synced_at: watermark };
  }
  // Scans after the cursor, up to the high-water mark.
  const window = sql`s.event_id = ${event.id}${contextFilter} AND ${afterCursor(cursor)}
                 AND s.created_at <= ${watermark}::timestamptz`;
  const res = await ctx.db.execute<ScanRow>(
    sql`SELECT ${SCAN_COLUMNS} FROM ${SCAN_FROM} WHERE ${window}
         ORDER BY s.created_at, s.id LIMIT ${LIST_SINCE_LIMIT + 1}`,
  );
  const rows = res.rows.map(scanJson);
  if (rows.length <= LIST_SINCE_LIMIT) return { scans: rows, has_more: false, synced_at: watermark };
  return endOnInstant(ctx, rows, window, watermark);
}

/**
 * A full page (`rows` holds one row past the page size) cut where `created_at` changes, so that
 * `synced_at` = the last scan's `created_at` resumes exactly after it.
 */
async function endOnInstant(
  ctx: EventCtx,
  rows: ScanJson[],
  window: SQL,
  watermark: string,
): Promise<ScanPage> {
  const last = rows[LIST_SINCE_LIMIT - 1]!.created_at;
  if (rows[LIST_SINCE_LIMIT]!.created_at !== last) {
    return { scans: rows.slice(0, LIST_SINCE_LIMIT), has_more: true, synced_at: last };
  }
  const split = rows.findIndex((r) => r.created_at === last);
  if (split > 0)
    return { scans: rows.slice(0, split), has_more: true, synced_at: rows[split - 1]!.created_at };
  // The page is one instant: all of its scans, however many (one transaction's batch).
  const tie = await ctx.db.execute<ScanRow>(
    sql`SELECT ${SCAN_COLUMNS} FROM ${SCAN_FROM} WHERE ${window} AND s.created_at = ${last}::timestamptz
         ORDER BY s.id`,
  );
  const after = await ctx.db.execute<{ one: number }>(
    sql`SELECT 1 AS one FROM scans s WHERE ${window} AND s.created_at > ${last}::timestamptz LIMIT 1`,
  );
  const has_more = after.rows.length > 0;
  return { scans: tie.rows.map(scanJson), has_more, synced_at: has_more ? last : watermark };
}
