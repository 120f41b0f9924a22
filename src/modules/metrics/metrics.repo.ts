/**
 * Database-wide figures for the metrics scrape (docs/operations.md "Metrics"): one statement per
 * scrape, read from pg-boss's job table and Muster's delivery tables. The same on every instance.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';

export interface QueueFigure {
  queue: string;
  /** Jobs waiting to run (`created` or `retry`) whose start time has come. */
  depth: number;
  /** Seconds the oldest of them has waited (0 when none). */
  oldest_seconds: number;
}

export type CountBy = {
  label: string;
  count: number;
};

export interface DatabaseFigures {
  queues: QueueFigure[];
  emails: CountBy[];
  chat: CountBy[];
  push: CountBy[];
}

/** Reads every database-derived figure in one round trip. */
export async function readDatabaseFigures(db: Tx): Promise<DatabaseFigures> {
  const res = await db.execute<{ figures: DatabaseFigures }>(sql`
    SELECT json_build_object(
      'queues', (SELECT coalesce(json_agg(q), '[]') FROM (
          SELECT name AS queue,
                 count(*) FILTER (WHERE start_after <= now())::int AS depth,
                 coalesce(extract(epoch FROM now() - min(created_on) FILTER (WHERE start_after <= now())), 0)::float8
                   AS oldest_seconds
            FROM pgboss.job WHERE state IN ('created', 'retry') GROUP BY name) q),
      'emails', (SELECT coalesce(json_agg(e), '[]') FROM (
          SELECT status AS label, count(*)::int AS count FROM email_log GROUP BY status) e),
      'chat', (SELECT coalesce(json_agg(c), '[]') FROM (
          SELECT status AS label, count(*)::int AS count FROM chat_blast_recipients GROUP BY status) c),
      'push', (SELECT coalesce(json_agg(p), '[]') FROM (
          SELECT state::text AS label, count(*)::int AS count FROM pgboss.job
           WHERE name = 'push-deliver' GROUP BY state) p)
    ) AS figures`);
  const figures = res.rows[0]?.figures;
  if (!figures) throw new Error('metrics query returned no row');
  return figures;
}
