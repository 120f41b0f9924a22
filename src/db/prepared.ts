/**
 * Hot-path statements prepared once per database handle (bench/README.md "Check-in"). The SQL text
 * is built once, with `sql.placeholder('name')` where values go; each call only fills the values.
 * On PostgreSQL the statement is also a named server-side prepared statement: parsed and planned
 * once per connection instead of once per call (the scan statement planned in 0.35 ms, the token
 * lookup in 0.22 ms against 0.03 ms of execution, pg_stat_statements with track_planning).
 *
 * Named statements are used only on handles registered with `useNamedStatements(db, pool)` (the
 * PostgreSQL pool, db/client.ts) and on transactions running on that pool's connections: the
 * embedded server may hand a fresh client the single session an earlier client prepared
 * statements on, so there every statement runs unnamed. Until 2026-11-29 transactions ran theirs
 * unnamed too, so the door's two statements per batch (the verdict's facts, the scans' write)
 * were parsed and planned at every batch: 2.3–4.5 ms of planning against 0.3–0.7 ms of execution
 * for the facts of 10 scans (bench/README.md "Prepared statements in transactions").
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
/** The connections of those pools: a transaction handle runs on one of them (`tx._.session.client`). */
const namedClients = new WeakSet<object>();

/**
 * Marks `db` (a PostgreSQL pool handle) as one whose prepared statements may be named, and every
 * connection `pool` opens, so that transactions on those connections name theirs too: the driver
 * parses a named statement once per connection and reuses it in every later transaction there.
 */
export function useNamedStatements(
  db: Db,
  pool: { on(event: 'connect', fn: (client: object) => void): unknown },
): void {
  named.add(db);
  pool.on('connect', (client) => namedClients.add(client));
}

/** Whether statements on `db` (a pool handle or a transaction on one of its connections) may be named. */
function namesStatements(db: Tx): boolean {
  if (named.has(db)) return true;
  const client = (db as unknown as { _?: { session?: { client?: unknown } } })._?.session?.client;
  return typeof client === 'object' && client !== null && namedClients.has(client);
}

/**
 * A statement prepared lazily, once per handle it runs on. `make(db, name)` builds the Drizzle
 * prepared query; `name` is undefined where statements must stay unnamed. Run it with
 * `statement(db).execute(values)`; on a transaction handle the Drizzle query is built again for
 * that transaction, while the server-side statement (named) is parsed once per connection.
 */
export function prepared<R>(
  name: string,
  make: (db: Tx, name: string | undefined) => PreparedQuery<R>,
): (db: Tx) => PreparedQuery<R> {
  const cache = new WeakMap<object, PreparedQuery<R>>();
  return (db) => {
    let query = cache.get(db);
    if (!query) {
      query = make(db, namesStatements(db) ? name : undefined);
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
