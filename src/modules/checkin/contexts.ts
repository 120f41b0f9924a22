/**
 * Scan contexts, read side (docs/decisions.md "Check-in"): the row shape, its JSON (times in the event's UTC
 * offset) and the lookups the scan, list, stream and management code share.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { EventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import type { ScanContextJson } from './checkin.schemas.js';
import { effectiveRefuse } from './verdict.js';

export const CONTEXT_NOT_IN_EVENT = 'scan_context_id does not belong to this event';
/** The largest PostgreSQL `integer`: ids above it name nothing. */
export const MAX_INT = 2147483647;

/** The event the route resolved (every check-in route has an `{event_id}` target). */
export type ContextRow = {
  id: number;
  name: string;
  checks_in: boolean;
  is_travel_pickup: boolean;
  /** The context's own refuse list; NULL = the default (verdict.ts effectiveRefuse()). */
  refuse: string[] | null;
  tracks_presence: boolean;
  position: number;
  starts_local: string | null;
  starts_off: number | null;
  ends_local: string | null;
  ends_off: number | null;
};

export const CONTEXT_COLUMNS =
  sql.raw(`sc.id, sc.name, sc.checks_in, sc.is_travel_pickup, sc.refuse, sc.tracks_presence, sc.position,
  to_char(sc.starts_at AT TIME ZONE e.timezone, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS starts_local,
  extract(epoch FROM (sc.starts_at AT TIME ZONE e.timezone) - (sc.starts_at AT TIME ZONE 'UTC'))::int AS starts_off,
  to_char(sc.ends_at AT TIME ZONE e.timezone, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS ends_local,
  extract(epoch FROM (sc.ends_at AT TIME ZONE e.timezone) - (sc.ends_at AT TIME ZONE 'UTC'))::int AS ends_off`);

/** Local wall time plus the event's UTC offset at that instant, e.g. `2026-07-10T09:00:00.000000+01:00`. */
function withOffset(local: string | null, offsetSeconds: number | null): string | null {
  if (local === null) return null;
  const off = offsetSeconds ?? 0;
  if (off === 0) return `${local}Z`;
  const abs = Math.abs(off);
  const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  return `${local}${off < 0 ? '-' : '+'}${hh}:${mm}`;
}

export function contextJson(row: ContextRow): ScanContextJson {
  return {
    id: row.id,
    name: row.name,
    checks_in: row.checks_in,
    is_travel_pickup: row.is_travel_pickup,
    is_airport: row.is_travel_pickup,
    refuse: effectiveRefuse(row),
    tracks_presence: row.tracks_presence,
    position: row.position,
    starts_at: withOffset(row.starts_local, row.starts_off),
    ends_at: withOffset(row.ends_local, row.ends_off),
  };
}

export async function contextRows(db: Tx, eventId: number, where: SQL = sql``): Promise<ContextRow[]> {
  const res = await db.execute<ContextRow>(
    sql`SELECT ${CONTEXT_COLUMNS} FROM scan_contexts sc JOIN events e ON e.id = sc.event_id
         WHERE sc.event_id = ${eventId}${where} ORDER BY sc.position, sc.id`,
  );
  return res.rows;
}

export async function listScanContexts(ctx: EventCtx): Promise<{ scan_contexts: ScanContextJson[] }> {
  const rows = await contextRows(ctx.db, ctx.access.event.id);
  return { scan_contexts: rows.map(contextJson) };
}

/**
 * The scan-context settings page's list (staff-web/scan-contexts.web.ts): each context's JSON (its
 * effective `refuse` list) plus `own_refuse`, whether it has a list of its own (false: the default).
 */
export async function scanContextSettings(
  ctx: EventCtx,
): Promise<(ScanContextJson & { own_refuse: boolean })[]> {
  const rows = await contextRows(ctx.db, ctx.access.event.id);
  return rows.map((row) => ({ ...contextJson(row), own_refuse: row.refuse !== null }));
}

/** A `scan_context_id` filter must name a context of the event (422), when given. */
export async function checkContextFilter(db: Tx, eventId: number, id: number | undefined): Promise<void> {
  if (id === undefined) return;
  const [row] = id > MAX_INT || id < 1 ? [] : await contextRows(db, eventId, sql` AND sc.id = ${id}`);
  if (!row) throw unprocessable(CONTEXT_NOT_IN_EVENT);
}
