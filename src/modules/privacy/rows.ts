/**
 * The three row operations subject access, erasure and retention shredding share (docs/privacy.md):
 * read the rows a data-map predicate selects, apply an entry's erase to them, and delete job-queue
 * rows (pg-boss's job table and its archive, when present) whose payload a predicate selects.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { Erase } from './data-map.js';

/** `row_to_json` of every row of `table` matching `where` (column names as stored). */
export async function rowsWhere(db: Tx, table: string, where: SQL): Promise<Record<string, unknown>[]> {
  const res = await db.execute<{ row: Record<string, unknown> }>(
    sql`SELECT row_to_json(x) AS row FROM ${sql.identifier(table)} x WHERE ${where}`,
  );
  return res.rows.map((r) => r.row);
}

/** Deletes or overwrites the rows of `table` matching `where`; returns how many. */
export async function applyErase(
  tx: Tx,
  table: string,
  erase: Exclude<Erase, { keep: string }>,
  where: SQL,
): Promise<number> {
  const t = sql.identifier(table);
  const res =
    'delete' in erase
      ? await tx.execute(sql`DELETE FROM ${t} WHERE ${where}`)
      : await tx.execute(sql`UPDATE ${t} SET ${erase.set} WHERE ${where}`);
  return res.rowCount ?? 0;
}

/** Deletes the job-queue rows matching `where`; returns the count per table (`pgboss.job`, `pgboss.archive`), non-zero only. */
export async function deleteJobs(tx: Tx, where: SQL): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of ['job', 'archive']) {
    const exists = await tx.execute<{ t: string | null }>(
      sql`SELECT to_regclass(${`pgboss.${name}`})::text AS t`,
    );
    if (!exists.rows[0]?.t) continue;
    const res = await tx.execute(sql`DELETE FROM pgboss.${sql.identifier(name)} WHERE ${where}`);
    if (res.rowCount) counts[`pgboss.${name}`] = res.rowCount;
  }
  return counts;
}
