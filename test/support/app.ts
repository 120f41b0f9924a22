/**
 * One app per test file: fresh database copied from the run's migrated template (test/support/db.ts)
 * → loadConfig → createDeps (migrations: nothing left to apply) → buildApp. Requests go through
 * `app.inject()`.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Deps } from '../../src/deps.js';
import { createDeps } from '../../src/server.js';
import { createTestDatabase } from './db.js';

export type TestDeps = Awaited<ReturnType<typeof createDeps>>;

export interface TestApp {
  app: FastifyInstance;
  deps: TestDeps;
  close(): Promise<void>;
}

export async function startTestApp(extraEnv: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...database.env, ...extraEnv });
  const deps = await createDeps(config, { database: await database.open(config) });
  let app: FastifyInstance;
  try {
    app = await buildApp(deps);
  } catch (error) {
    await deps.close();
    await database.drop();
    throw error;
  }
  return {
    app,
    deps,
    async close() {
      await app.close();
      await deps.close();
      await database.drop();
    },
  };
}

/** `Authorization: Bearer <secret>` (or no header for `undefined`). */
export function bearer(secret: string | undefined): Record<string, string> {
  return secret === undefined ? {} : { authorization: `Bearer ${secret}` };
}

/** GET with an optional bearer secret. */
export function get(
  app: FastifyInstance,
  url: string,
  secret?: string,
  extra: Omit<InjectOptions, 'method' | 'url'> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url,
    ...extra,
    headers: { ...bearer(secret), ...(extra.headers ?? {}) },
  });
}

export interface TableSnapshot {
  rows: number;
  checksum: string;
}

/**
 * Row count and an md5 over every row (as text, sorted) of every table in the `public` schema, so a
 * test can prove a denied request changed nothing. `ignoreColumns` leaves bookkeeping columns out;
 * by default `last_used_at`, which successful key requests stamp after their response
 * (src/http/key-usage.ts) and which may therefore land while a test takes its snapshots.
 */
export async function snapshotDb(
  deps: Pick<Deps, 'database'>,
  opts: { ignoreColumns?: readonly string[] } = {},
): Promise<Record<string, TableSnapshot>> {
  const ignore = new Set(opts.ignoreColumns ?? ['last_used_at']);
  const pool = deps.database.pool;
  const { rows: columns } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table_name, column_name } of columns) {
    const list = byTable.get(table_name) ?? [];
    if (!ignore.has(column_name)) list.push(column_name);
    byTable.set(table_name, list);
  }
  const quote = (id: string) => `"${id.replaceAll('"', '""')}"`;
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  // One query for every table (a UNION ALL of one aggregate per table), not one round trip each.
  if (byTable.size === 0) return {};
  const parts = [...byTable.entries()].map(([table, cols]) => {
    const rowText = cols.length > 0 ? `row(${cols.map((c) => `t.${quote(c)}`).join(', ')})::text` : `''`;
    return `SELECT ${literal(table)} AS name, count(*)::int AS n,
              md5(coalesce(string_agg(${rowText}, ',' ORDER BY ${rowText}), '')) AS h
         FROM ${quote(table)} t`;
  });
  const { rows } = await pool.query<{ name: string; n: number; h: string | null }>(
    parts.join('\nUNION ALL\n'),
  );
  const out: Record<string, TableSnapshot> = {};
  for (const row of [...rows].sort((a, b) => a.name.localeCompare(b.name))) {
    out[row.name] = { rows: row.n, checksum: row.h ?? '' };
  }
  return out;
}
