/**
 * SQL of the staff participants table: one statement orders the matching registrations and returns
 * one page of ids (the default order by name reads the index people_name_sort, so a page costs
 * its own rows, not a sort of the whole event; an order and conditions that need no person read
 * registrations alone), one counts the matches up to a bound (over registrations alone when no
 * condition needs the person; it stops at the bound, so its cost does not grow with the event), and
 * a third builds the rows of those ids only (the per-row columns are computed for 50 rows, never
 * for the whole event). Every query carries the event id.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import type { Tx } from '../../db/client.js';
import { tableRowSelect } from './table.sql.js';

export interface PageQuery {
  /** Conditions over r/p/e, AND-ed with the event id. */
  where: readonly SQL[];
  /** Whether a condition reads p (people) or e (events); otherwise the count reads r alone. */
  person: boolean;
  /** ORDER BY list (ends with r.id so the order is total). */
  order: SQL;
  /** Whether the order reads p; otherwise, with no person condition, the page reads r alone. */
  orderPerson: boolean;
  limit: number;
  offset: number;
  /** The count stops past max(bound, offset + limit) matches (see `countBound`). */
  bound: number;
}

/** How many matches the count reads at most: the bound, or past the page when it lies deeper. */
export const countBound = (q: Pick<PageQuery, 'bound' | 'offset' | 'limit'>): number =>
  Math.max(q.bound, q.offset + q.limit);

const people = sql`JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id`;
const from = (eventId: number, where: readonly SQL[], person = true) =>
  sql`FROM registrations r ${person ? people : sql``}
     WHERE ${sql.join([sql`r.event_id = ${eventId}`, ...where], sql` AND `)}`;

/**
 * One page of matching registration ids in order, and how many match: exact (`exact: true`) when
 * at most `countBound(q)` match, else that bound with `exact: false` ("more than"). The bound is at
 * least past the page, so whether a next page exists is always known.
 */
export async function pageIds(
  db: Tx,
  eventId: number,
  q: PageQuery,
): Promise<{ ids: number[]; total: number; exact: boolean }> {
  const bound = countBound(q);
  const [page, count] = await Promise.all([
    db.execute<{ id: number }>(
      sql`SELECT r.id ${from(eventId, q.where, q.person || q.orderPerson)}
          ORDER BY ${q.order} LIMIT ${q.limit} OFFSET ${q.offset}`,
    ),
    db.execute<{ n: string | number }>(
      sql`SELECT count(*) AS n FROM (SELECT 1 ${from(eventId, q.where, q.person)} LIMIT ${bound + 1}) m`,
    ),
  ]);
  const n = Number(count.rows[0]?.n ?? 0);
  return { ids: page.rows.map((r) => Number(r.id)), total: Math.min(n, bound), exact: n <= bound };
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
