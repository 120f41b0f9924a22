/** Stored scans by door verdict, for the metrics scrape (docs/operations.md "Metrics"). */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { CountBy } from './metrics.repo.js';

/**
 * Stored scans grouped by `verdict` (`admitted`, `warning`; a refused scan is stored only when
 * forced, with `verdict = 'refused'`). One row per verdict present.
 */
export async function readScanFigures(db: Tx): Promise<CountBy[]> {
  const res = await db.execute<CountBy>(
    sql`SELECT verdict AS label, count(*)::int AS count FROM scans GROUP BY verdict ORDER BY verdict`,
  );
  return res.rows;
}
