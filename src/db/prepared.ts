/**
 * Hot-path statements prepared once per database handle (bench/README.md "Check-in"). The SQL text
 * is built once, with `sql.placeholder('name')` where values go; each call only fills the values.
 * On PostgreSQL the statement is also a named server-side prepared statement: parsed and planned
 * once per connection instead of once per call (the scan statement planned in 0.35 ms, the token
 * lookup in 0.22 ms against 0.03 ms of execution, pg_stat_statements with track_planning).
 *
 * Named statements are used only on handles registered with `useNamedStatements(db, true)` (the
 * PostgreSQL pool, db/client.ts): the embedded server may hand a fresh client the single session
 * an earlier client prepared statements on, so there every statement runs unnamed.
 *
 * A name must always come with the same text: one `prepared()` per distinct statement.
 */
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.js';

/** Something `execute(values)` can run: a Drizzle prepared query. */
export interface PreparedQuery<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * Turns `sql` templates into text and parameters, as the handle's own dialect does (neither
 * driver is configured with a casing, so the default dialect writes the same text).
 */
const dialect = new PgDialect();

const named = new WeakSet<object>();

/** Marks `db` (a PostgreSQL pool handle) as one whose prepared statements may be named. */
export function useNamedStatements(db: Db): void {
  named.add(db);
}

/**
 * A statement prepared lazily, once per handle it runs on. `make(db, name)` builds the Drizzle
 * prepared query; `name` is undefined where statements must stay unnamed. Run it with
 * `statement(db).execute(values)`; on a transaction handle it is prepared for that call only.
 */
export function prepared<R>(
  name: string,
  make: (db: Tx, name: string | undefined) => PreparedQuery<R>,
): (db: Tx) => PreparedQuery<R> {
  const cache = new WeakMap<object, PreparedQuery<R>>();
  return (db) => {
    let query = cache.get(db);
    if (!query) {
      query = make(db, named.has(db) ? name : undefined);
      cache.set(db, query);
    }
    return query;
  };
}

/**
 * A raw SQL statement (`build()` uses `sql.placeholder()` for values), prepared as `prepared()`
 * does. The text is built on first use. Resolves to the driver's result (`{ rows }`).
 */
export function preparedSql<T>(name: string, build: () => SQL): (db: Tx) => PreparedQuery<{ rows: T[] }> {
  let query: { sql: string; params: unknown[] } | undefined;
  return prepared(name, (db, statementName) => {
    query ??= dialect.sqlToQuery(build());
    // The session Drizzle exposes on every handle (`db._.session`), the transaction's own in a transaction.
    return db._.session.prepareQuery<{ execute: { rows: T[] }; all: unknown; values: unknown }>(
      query,
      undefined,
      statementName,
      false,
    );
  });
}

/**
 * A family of `preparedSql()` statements, one per variant of a request (e.g. by visibility): the
 * variant's `nameOf(variant)` must be unique in the family and name one text only.
 */
export function preparedSqlFamily<V, T>(
  nameOf: (variant: V) => string,
  build: (variant: V) => SQL,
): (variant: V) => (db: Tx) => PreparedQuery<{ rows: T[] }> {
  const family = new Map<string, (db: Tx) => PreparedQuery<{ rows: T[] }>>();
  return (variant) => {
    const name = nameOf(variant);
    let statement = family.get(name);
    if (!statement) {
      statement = preparedSql<T>(name, () => build(variant));
      family.set(name, statement);
    }
    return statement;
  };
}
