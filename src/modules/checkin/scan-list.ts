/**
 * GET /events/{e}/scans (contract §5): the scan feed for scanner devices.
 *
 * Rows are read in (created_at, id) order. `synced_at` is the cursor to pass back as `since`:
 * - no `has_more`: the sync high-water mark (an ISO 8601 timestamp);
 * - `has_more`: the last row's `created_at` (an ISO 8601 timestamp), except when the next row shares
 *   that `created_at` (several scans committed by transactions that started in the same
 *   microsecond, or the same millisecond on the embedded database). Then a timestamp alone cannot
 *   say where the page ended, and `synced_at` is the compound cursor `<created_at>_<last id>`,
 *   e.g. `2026-11-24T11:00:00.123456Z_4711`: the next page holds rows with
 *   `created_at > T OR (created_at = T AND id > 4711)`. Clients return `synced_at` verbatim
 *   (contract §1), so each row is delivered exactly once whatever the page boundaries.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { EventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { isIsoDateTime } from '../../lib/time.js';
import { syncWatermark } from '../participants/participants.repo.js';
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

/** Parses `since`: an ISO 8601 timestamp, or `<timestamp>_<id>` (a compound synced_at). 422 otherwise. */
export function parseSince(since: string): ScanCursor {
  const m = /^(.+?)(?:_([0-9]{1,15}))?$/.exec(since);
  if (!m || !isIsoDateTime(m[1]!)) throw unprocessable(SINCE_INVALID);
  return { at: m[1]!, id: m[2] === undefined ? null : Number(m[2]) };
}

/** `synced_at` for a page that ends at `last` when the next row is `next`. */
export function pageCursor(last: ScanJson, next: ScanJson): string {
  return next.created_at === last.created_at ? `${last.created_at}_${last.id}` : last.created_at;
}

function afterCursor(c: ScanCursor): SQL {
  if (c.id === null) return sql`s.created_at > ${c.at}::timestamptz`;
  return sql`s.created_at >= ${c.at}::timestamptz AND (s.created_at > ${c.at}::timestamptz OR s.id > ${c.id})`;
}

/** GET /events/{e}/scans → `{scans, has_more, synced_at}` (contract §5, §9). */
export async function listScans(
  ctx: EventCtx,
  input: ScanListInput,
): Promise<{ scans: ScanJson[]; has_more: boolean; synced_at: string }> {
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
  const res = await ctx.db.execute<ScanRow>(
    sql`SELECT ${SCAN_COLUMNS} FROM ${SCAN_FROM}
         WHERE s.event_id = ${event.id}${contextFilter}
           AND ${afterCursor(cursor)} AND s.created_at <= ${watermark}::timestamptz
         ORDER BY s.created_at, s.id LIMIT ${LIST_SINCE_LIMIT + 1}`,
  );
  const rows = res.rows.map(scanJson);
  if (rows.length <= LIST_SINCE_LIMIT) return { scans: rows, has_more: false, synced_at: watermark };
  const page = rows.slice(0, LIST_SINCE_LIMIT);
  return {
    scans: page,
    has_more: true,
    synced_at: pageCursor(page[LIST_SINCE_LIMIT - 1]!, rows[LIST_SINCE_LIMIT]!),
  };
}
