/**
 * SQL of the staff participants table: one statement ranks and counts the matching registrations
 * and returns one page of ids, a second builds the rows of those ids only (so the per-row columns
 * are computed for 50 rows, never for the whole event). Every query carries the event id.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import type { Tx } from '../../db/client.js';
import { tableRowSelect } from './table.sql.js';

export interface PageQuery {
  /** Conditions over r/p/e, AND-ed with the event id. */
  where: readonly SQL[];
  /** ORDER BY list (ends with r.id so the order is total). */
  order: SQL;
  limit: number;
  offset: number;
}

const from = (eventId: number, where: readonly SQL[]) =>
  sql`FROM registrations r JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
     WHERE ${sql.join([sql`r.event_id = ${eventId}`, ...where], sql` AND `)}`;

/** One page of matching registration ids in order, and how many match in all. */
export async function pageIds(
  db: Tx,
  eventId: number,
  q: PageQuery,
): Promise<{ ids: number[]; total: number }> {
  const res = await db.execute<{ id: number; total: string | number }>(
    sql`SELECT r.id, count(*) OVER () AS total ${from(eventId, q.where)}
         ORDER BY ${q.order} LIMIT ${q.limit} OFFSET ${q.offset}`,
  );
  if (res.rows.length > 0) {
    return { ids: res.rows.map((r) => Number(r.id)), total: Number(res.rows[0]!.total) };
  }
  // Past the last page (or nothing matches): the count alone.
  const count = await db.execute<{ n: string | number }>(sql`SELECT count(*) AS n ${from(eventId, q.where)}`);
  return { ids: [], total: Number(count.rows[0]?.n ?? 0) };
}

/** The rows (JSON objects) of `ids`, in the order of `ids`, with the columns `v` may receive. */
export async function rowsOf<T>(
  db: Tx,
  eventId: number,
  v: Visibility,
  ids: readonly number[],
): Promise<T[]> {
  if (ids.length === 0) return [];
  const res = await db.execute<{ id: number; j: T }>(
    sql`${sql.raw(tableRowSelect(v))} WHERE r.event_id = ${eventId} AND r.id = ANY(${`{${ids.join(',')}}`}::int[])`,
  );
  const byId = new Map(res.rows.map((r) => [Number(r.id), r.j]));
  return ids.map((id) => byId.get(id)).filter((row): row is Awaited<T> => row !== undefined) as T[];
}
