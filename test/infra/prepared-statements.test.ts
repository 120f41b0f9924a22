/**
 * src/db/prepared.ts: a statement built once runs with fresh values on every call; on PostgreSQL
 * it is a named server-side prepared statement on the pool's connections, transactions on them
 * included; on the embedded database it stays unnamed.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedSql, preparedSqlFamily } from '../../src/db/prepared.js';
import { startTestApp, type TestApp } from '../support/app.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

const plusOne = preparedSql<{ n: number }>(
  'test_plus_one',
  () => sql`SELECT ${sql.placeholder('v')}::int + 1 AS n`,
);
const times = preparedSqlFamily<number, { n: number }>(
  (k) => `test_times_${k}`,
  (k) => sql`SELECT ${sql.placeholder('v')}::int * ${sql.raw(String(k))} AS n`,
);

let t: TestApp;
beforeAll(async () => {
  // One pooled connection, so pg_prepared_statements below is the session the statements ran on.
  t = await startTestApp({ MUSTER_DB_POOL_SIZE: '1' });
});
afterAll(async () => t?.close());

async function preparedNames(): Promise<string[]> {
  const res = await t.deps.db.execute<{ name: string }>(
    sql`SELECT name FROM pg_prepared_statements ORDER BY name`,
  );
  return res.rows.map((r) => r.name);
}

describe('prepared statements', () => {
  it('run with the values of each call', async () => {
    expect((await plusOne(t.deps.db).execute({ v: 1 })).rows).toEqual([{ n: 2 }]);
    expect((await plusOne(t.deps.db).execute({ v: 41 })).rows).toEqual([{ n: 42 }]);
    expect((await times(3)(t.deps.db).execute({ v: 5 })).rows).toEqual([{ n: 15 }]);
    expect((await times(4)(t.deps.db).execute({ v: 5 })).rows).toEqual([{ n: 20 }]);
    expect(times(3)).toBe(times(3));
  });

  it('are named on PostgreSQL and unnamed on the embedded database', async () => {
    await plusOne(t.deps.db).execute({ v: 1 });
    await times(3)(t.deps.db).execute({ v: 1 });
    const names = await preparedNames();
    if (onPostgres) expect(names).toEqual(expect.arrayContaining(['test_plus_one', 'test_times_3']));
    else expect(names).not.toContain('test_plus_one');
  });

  it('are named inside a transaction on PostgreSQL too, parsed once per connection', async () => {
    const runInTx = () =>
      t.deps.db.transaction(async (tx) => {
        const out = await times(7)(tx).execute({ v: 2 });
        const names = await tx.execute<{ name: string }>(
          sql`SELECT name FROM pg_prepared_statements ORDER BY name`,
        );
        return { rows: out.rows, names: names.rows.map((r) => r.name) };
      });
    const first = await runInTx();
    expect(first.rows).toEqual([{ n: 14 }]);
    // A second transaction on the same (single) connection reuses the statement: no "already exists".
    const second = await runInTx();
    expect(second.rows).toEqual([{ n: 14 }]);
    if (onPostgres) expect(second.names).toContain('test_times_7');
    else expect(second.names).not.toContain('test_times_7');
    // Outside the transaction the pool handle still runs it, with its own values.
    expect((await times(7)(t.deps.db).execute({ v: 3 })).rows).toEqual([{ n: 21 }]);
  });
});
