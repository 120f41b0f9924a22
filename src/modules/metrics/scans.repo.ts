/** Stored scans by door verdict, for the metrics scrape (docs/operations.md "Metrics"). */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { CountBy } from './metrics.repo.js';

/** Scans grouped by verdict (`admitted`, `warning`, `refused` stored with `forced`). */
export async function readScanFigures(db: Tx): Promise<CountBy[]> {
  const res = await db.execute<CountBy>(sql`SELECT 'all' AS label, count(*)::int AS count FROM scans`);
  return res.rows;
}
