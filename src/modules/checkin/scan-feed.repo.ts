/**
 * The durable scan feed (table `scan_feed`) behind GET /events/{e}/scans/stream.
 *
 * Writers append in the transaction of the scan or undo, so a feed entry exists exactly when its
 * change committed. `created_at` is the writer's transaction start, so a transaction still open can
 * only commit entries with created_at ≥ its start. Reading in (created_at, id) order up to the sync
 * high-water mark (just below the start of the oldest open transaction, as GET /participants and
 * GET /scans do) therefore reads a prefix that never changes later: a cursor never skips a late
 * commit. That works across processes and on both
 * PostgreSQL and the embedded database (polling; no LISTEN/NOTIFY needed).
 *
 * Cursor: (created_at in microseconds since the epoch, id), written as one 28-digit decimal number
 * (16 digits of microseconds, 12 of id) that increases strictly along the feed: the SSE `id`.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import { SYNC_HIGH_WATER_SQL } from '../../db/watermark.js';
import type { ScanJson } from './checkin.schemas.js';

export type FeedKind = 'scan' | 'scan_undone' | 'flight_landed';

export interface FeedCursor {
  /** created_at, microseconds since the epoch (decimal text, ≤ 16 digits). */
  us: string;
  id: number;
}

export interface FeedEntry {
  cursor: string;
  kind: FeedKind;
  /** null for travel-channel entries (`flight_landed`, docs/travel.md "Live tracking"). */
  scanContextId: number | null;
  /** The scan as GET /scans shows it (JSON text). */
  payload: string;
}

const MAX_ID = 999_999_999_999;
const CURSOR = /^([0-9]{16})([0-9]{12})$/;

export function formatCursor(c: FeedCursor): string {
  return `${c.us.padStart(16, '0')}${String(c.id).padStart(12, '0')}`;
}

/** The cursor in an SSE `Last-Event-ID`, or null when it is not one of ours. */
export function parseCursor(text: string): FeedCursor | null {
  const m = CURSOR.exec(text.trim());
  return m ? { us: String(BigInt(m[1]!)), id: Number(m[2]) } : null;
}

/** Appends scans (as GET /scans shows them) to the feed, in the writer's transaction. */
export async function appendFeed(tx: Tx, eventId: number, kind: FeedKind, scans: ScanJson[]): Promise<void> {
  if (scans.length === 0) return;
  await tx.execute(sql`INSERT INTO scan_feed (event_id, kind, scan_id, scan_context_id, payload)
        SELECT ${eventId}, ${kind}, (x->>'id')::bigint, (x->>'scan_context_id')::int, x
          FROM json_array_elements(${JSON.stringify(scans)}::json) AS x`);
}

/** The sync high-water mark (participants.repo.ts): the feed is read up to it, as the sync is. */
const HIGH_WATER = sql.raw(SYNC_HIGH_WATER_SQL);

const US = (expr: string) => sql.raw(`(extract(epoch FROM ${expr}) * 1000000)::bigint::text`);

/** The cursor of "now": entries after it are those not yet readable (committed later or still open). */
export async function headCursor(db: Tx): Promise<string> {
  const res = await db.execute<{ us: string }>(
    sql`SELECT ${US('hw')} AS us FROM (SELECT ${HIGH_WATER} AS hw) w`,
  );
  return formatCursor({ us: one(res.rows).us, id: MAX_ID });
}

/** Up to `limit` entries of the event after `after`, in feed order, up to the high-water mark. */
export async function readFeed(db: Tx, eventId: number, after: string, limit: number): Promise<FeedEntry[]> {
  const c = parseCursor(after);
  if (!c) throw new Error(`bad feed cursor ${after}`);
  const at = sql`(timestamptz '1970-01-01 00:00:00+00' + ${c.us}::bigint * interval '1 microsecond')`;
  const res = await db.execute<{
    id: string;
    kind: FeedKind;
    us: string;
    scan_context_id: number | null;
    payload: string;
  }>(
    sql`SELECT f.id::text AS id, f.kind, ${US('f.created_at')} AS us, f.scan_context_id, f.payload::text AS payload
          FROM scan_feed f, (SELECT ${HIGH_WATER} AS hw) w
         WHERE f.event_id = ${eventId} AND f.created_at >= ${at} AND (f.created_at > ${at} OR f.id > ${c.id})
           AND f.created_at <= w.hw
         ORDER BY f.created_at, f.id LIMIT ${limit}`,
  );
  return res.rows.map((r) => ({
    cursor: formatCursor({ us: r.us, id: Number(r.id) }),
    kind: r.kind,
    scanContextId: r.scan_context_id,
    payload: r.payload,
  }));
}
