/**
 * Reads an export's rows from the database in batches of registrations (keyset by id, or by last
 * name, first name and id), so memory stays bounded whatever the event's size and no connection is
 * held between batches (the embedded database has one). Each batch is one statement: a batch is
 * consistent, the whole export is not a snapshot (a registration changed mid-export shows its
 * state when its batch was read). docs/exports.md "Streaming".
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { type Column, FIRST_CHECK_IN } from './columns.js';
import { type ExportFilters, filterSql } from './filters.js';

export const BATCH_SIZE = 500;

export interface ReadOptions {
  order: 'id' | 'name';
  /** One row per travel leg (a travel without legs gives one row), inbound first. */
  perLeg: boolean;
  /** `datetime` cells as ISO 8601 UTC (`…Z`) instead of the event's wall-clock time. */
  utcTimes: boolean;
  /** The door list: `scan_context` names the list instead of filtering it. */
  contextIsTitle?: boolean;
}

const FROM = `registrations r
  JOIN people p ON p.id = r.person_id
  JOIN events e ON e.id = r.event_id
  LEFT JOIN registration_medical med ON med.registration_id = r.id
  LEFT JOIN registration_dietary diet ON diet.registration_id = r.id
  LEFT JOIN registration_safeguarding sg ON sg.registration_id = r.id
  LEFT JOIN registration_accommodations acc ON acc.registration_id = r.id
  LEFT JOIN LATERAL (${FIRST_CHECK_IN}) ci ON true
  LEFT JOIN LATERAL (SELECT g.name, g.relationship, g.phone, g.email FROM guardians g
    WHERE g.registration_id = r.id ORDER BY g.is_primary DESC, g.id LIMIT 1) pg ON true`;
const LEGS = `JOIN travels t ON t.registration_id = r.id
  LEFT JOIN travel_legs l ON l.travel_id = t.id`;
const NAME_KEY = `lower(p.legal_last_name), lower(p.legal_first_name), r.id`;

/** The SELECT expression of a column: its value as text in the form cells.ts reads. */
export function selectOf(c: Column, utcTimes: boolean): string {
  switch (c.type) {
    case 'date':
      return `to_char(${c.sql}, 'YYYY-MM-DD')`;
    case 'datetime':
      return utcTimes
        ? `to_char((${c.sql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`
        : `to_char((${c.sql}) AT TIME ZONE e.timezone, 'YYYY-MM-DD"T"HH24:MI:SS')`;
    default:
      return `(${c.sql})::text`;
  }
}

interface Cursor {
  id: number;
  last: string;
  first: string;
}

function after(order: 'id' | 'name', cursor: Cursor | null): SQL {
  if (!cursor) return sql`true`;
  if (order === 'id') return sql`r.id > ${cursor.id}`;
  // The first condition is implied by the second; it is what lets the scan of people_name_sort
  // start at the cursor (an index condition) instead of at the first name and filtering every
  // earlier person again on each batch (which made a name-ordered export quadratic in its size).
  return sql`(lower(p.legal_last_name), lower(p.legal_first_name)) >= (${cursor.last}, ${cursor.first})
    AND (lower(p.legal_last_name), lower(p.legal_first_name), r.id) > (${cursor.last}, ${cursor.first}, ${cursor.id})`;
}

/** The registration ids of the export, batch by batch, in the preset's order. */
export async function* registrationBatches(
  db: Tx,
  eventId: number,
  filters: ExportFilters,
  opts: Pick<ReadOptions, 'order' | 'contextIsTitle'>,
): AsyncGenerator<number[]> {
  const order = sql.raw(opts.order === 'id' ? 'r.id' : NAME_KEY);
  let cursor: Cursor | null = null;
  for (;;) {
    const where = sql.join(
      [sql`r.event_id = ${eventId}`, after(opts.order, cursor), ...filterSql(filters, !!opts.contextIsTitle)],
      sql` AND `,
    );
    const res = await db.execute<{ id: number; last: string; first: string }>(
      sql`SELECT r.id, lower(p.legal_last_name) AS last, lower(p.legal_first_name) AS first
            FROM registrations r JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
           WHERE ${where} ORDER BY ${order} LIMIT ${BATCH_SIZE}`,
    );
    if (res.rows.length === 0) return;
    const last = res.rows[res.rows.length - 1]!;
    cursor = { id: Number(last.id), last: last.last, first: last.first };
    yield res.rows.map((r) => Number(r.id));
    if (res.rows.length < BATCH_SIZE) return;
  }
}

/**
 * Yields the export's rows (raw cell texts, in `columns` order) batch by batch, in the preset's
 * order; with `perLeg`, one row per travel leg.
 */
export async function* exportRows(
  db: Tx,
  eventId: number,
  columns: readonly Column[],
  filters: ExportFilters,
  opts: ReadOptions,
): AsyncGenerator<(string | null)[][]> {
  const select = sql.raw(columns.map((c, i) => `${selectOf(c, opts.utcTimes)} AS c${i}`).join(', '));
  const from = sql.raw(opts.perLeg ? `${FROM} ${LEGS}` : FROM);
  const base = opts.order === 'id' ? 'r.id' : NAME_KEY;
  const order = sql.raw(opts.perLeg ? `${base}, t.direction, l.position, l.id` : base);
  for await (const ids of registrationBatches(db, eventId, filters, opts)) {
    yield await batchRows(
      db,
      sql`SELECT ${select} FROM ${from}
           WHERE r.event_id = ${eventId} AND r.id IN (${sql.raw(ids.join(','))}) ORDER BY ${order}`,
      columns.length,
    );
  }
}

/**
 * One batch's rows as arrays. The driver's row objects are dropped on return, so only the arrays
 * stay alive while the batch is written (less of each batch outlives V8's young generation).
 */
async function batchRows(db: Tx, query: SQL, width: number): Promise<(string | null)[][]> {
  const res = await db.execute<Record<string, string | null>>(query);
  const keys = Array.from({ length: width }, (_, i) => `c${i}`);
  const rows = new Array<(string | null)[]>(res.rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = res.rows[r]!;
    const cells = new Array<string | null>(width);
    for (let i = 0; i < width; i++) cells[i] = row[keys[i]!] ?? null;
    rows[r] = cells;
  }
  return rows;
}
