/**
 * The sync high-water mark (docs/decisions.md "Participants API") that the participant sync, the scan list and the live scan
 * feed page up to: database-level, so no module borrows it from another.
 */
import { sql } from 'drizzle-orm';
import { isoSqlText } from '../lib/time.js';
import type { Tx } from './client.js';
import { preparedSql } from './prepared.js';
import { one } from './rows.js';

/**
 * The sync high-water mark as an SQL expression (timestamptz): just below the start of the oldest
 * transaction open in this database, and 1 ms behind the clock (the embedded clock has ms
 * resolution). Shared by the participant sync, the scan list and the live scan feed so none skips a write.
 */
export const SYNC_HIGH_WATER_SQL = `least(clock_timestamp() - interval '1 millisecond', COALESCE((
  SELECT min(xact_start) FROM pg_stat_activity
   WHERE xact_start IS NOT NULL AND pid <> pg_backend_pid() AND datname = current_database()
     AND backend_type = 'client backend') - interval '1 microsecond', 'infinity'))`;

/**
 * Sync high-water mark (docs/decisions.md "Participants API"), fixed before the list query. updated_at is set to the
 * writing transaction's start time, so any write not yet committed has updated_at ≥ the start of
 * the oldest transaction still open; the mark stays just below that, and such rows are picked up
 * by the next delta sync instead of being skipped. The mark also stays one millisecond behind the
 * clock: the embedded database's clock has millisecond resolution, so a write starting in the same
 * millisecond would otherwise carry updated_at == synced_at and be skipped (rows of that last
 * millisecond are sent twice instead, which clients merge).
 */
export async function syncWatermark(db: Tx): Promise<string> {
  const res = await watermarkStatement(db).execute();
  return one(res.rows).hw;
}
/** The statement of syncWatermark() (column `hw`, ISO 8601 text). */
export const syncWatermarkSql = () => sql.raw(`SELECT ${isoSqlText(SYNC_HIGH_WATER_SQL)} AS hw`);
const watermarkStatement = preparedSql<{ hw: string }>('sync_watermark', syncWatermarkSql);

/**
 * The mark the request's gate already read with its credential (access.watermark, route config
 * `syncWatermark`), else syncWatermark(db). Either way it is read before the handler's statements.
 */
export async function requestWatermark(db: Tx, access: { watermark?: string }): Promise<string> {
  return access.watermark ?? (await syncWatermark(db));
}
