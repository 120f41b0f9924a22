/**
 * Reads an export's rows from the database in batches of registrations (keyset by id), so memory
 * stays bounded whatever the event's size and no connection is held between batches (the embedded
 * database has one). Each batch is one statement: a batch is consistent, the whole export is not
 * a snapshot (a registration changed mid-export shows its state when its batch was read).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { CHECKED_IN, type Column, FIRST_CHECK_IN, IS_MINOR } from './presets.js';

export const BATCH_SIZE = 500;

export interface ExportFilters {
  status?: string[];
  minor?: boolean;
  checked_in?: boolean;
}

function where(eventId: number, f: ExportFilters, after: number): SQL {
  const parts: SQL[] = [sql`r.event_id = ${eventId}`, sql`r.id > ${after}`];
  if (f.status?.length)
    parts.push(
      sql`r.status IN (${sql.join(
        f.status.map((st) => sql`${st}`),
        sql`, `,
      )})`,
    );
  if (f.minor !== undefined) parts.push(sql`${sql.raw(IS_MINOR)} = ${f.minor}`);
  if (f.checked_in !== undefined) parts.push(sql`${sql.raw(CHECKED_IN)} = ${f.checked_in}`);
  return sql.join(parts, sql` AND `);
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

/**
 * Yields the export's rows (cell texts, in `columns` order) batch by batch: registrations by id;
 * with `perLeg`, one row per travel leg (a travel without legs gives one row), inbound first.
 */
export async function* exportRows(
  db: Tx,
  eventId: number,
  columns: readonly Column[],
  filters: ExportFilters,
  perLeg: boolean,
): AsyncGenerator<(string | null)[][]> {
  const select = sql.raw(columns.map((c, i) => `(${c.sql})::text AS c${i}`).join(', '));
  const from = sql.raw(perLeg ? `${FROM} ${LEGS}` : FROM);
  const order = sql.raw(perLeg ? 'r.id, t.direction, l.position, l.id' : 'r.id');
  let after = 0;
  for (;;) {
    const ids = await db.execute<{ id: number }>(
      sql`SELECT r.id FROM registrations r JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
           WHERE ${where(eventId, filters, after)} ORDER BY r.id LIMIT ${BATCH_SIZE}`,
    );
    if (ids.rows.length === 0) return;
    const list = ids.rows.map((r) => Number(r.id));
    after = list[list.length - 1]!;
    const res = await db.execute<Record<string, string | null>>(
      sql`SELECT ${select} FROM ${from}
           WHERE r.event_id = ${eventId} AND r.id IN (${sql.raw(list.join(','))}) ORDER BY ${order}`,
    );
    yield res.rows.map((row) => columns.map((_, i) => row[`c${i}`] ?? null));
    if (list.length < BATCH_SIZE) return;
  }
}
