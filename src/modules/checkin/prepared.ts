/**
 * Named (server-side prepared) statements for the hot path of a scan. The participant JSON of a
 * scan response is an ~8 KB statement whose planning took 1.3–2.6 ms against 0.3 ms of execution
 * (EXPLAIN ANALYZE, bench/README.md "checkin"); prepared once per connection, PostgreSQL reuses a
 * generic plan. `name` must always come with the same text (values go in parameters).
 *
 * PostgreSQL only: the embedded server may hand a fresh client the single session an earlier
 * client prepared statements on, so there the statement runs unnamed.
 */
import type { SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { Ctx } from '../../deps.js';

interface DrizzleInternals {
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      arrayMode: boolean,
    ): { execute(): Promise<{ rows: unknown[] }> };
  };
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

/** Runs `query` as the named statement `name` on PostgreSQL (unnamed on the embedded database). */
export async function executeNamed<T>(ctx: Ctx, tx: Tx, name: string, query: SQL): Promise<{ rows: T[] }> {
  if (ctx.database.kind !== 'postgres') return tx.execute(query) as Promise<{ rows: T[] }>;
  const t = tx as unknown as DrizzleInternals;
  return t.session.prepareQuery(t.dialect.sqlToQuery(query), undefined, name, false).execute() as Promise<{
    rows: T[];
  }>;
}
