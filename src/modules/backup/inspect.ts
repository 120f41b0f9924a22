/** What a backup's manifest records about the database: version, migration and row counts. */
import type pg from 'pg';
import { type JournalEntry, journal } from '../../db/migrate.js';

/** The newest migration this code knows (tag and journal time). */
export function newestKnownMigration(): JournalEntry {
  const entries = journal();
  return entries.reduce((a, b) => (b.when > a.when ? b : a));
}

/** The newest migration applied to the database, named by its journal tag when this code knows it. */
export async function appliedMigration(client: pg.ClientBase): Promise<JournalEntry> {
  const res = await client.query<{ when: string }>(
    'SELECT max(created_at)::text AS when FROM drizzle.__drizzle_migrations',
  );
  const when = Number(res.rows[0]?.when ?? 0);
  return { tag: journal().find((e) => e.when === when)?.tag ?? 'unknown', when };
}

/**
 * UNLOGGED tables (caches: the sync list's `participant_json`, migration 0026) are not counted: a
 * restored copy of the embedded database's folder starts with them empty, and reads rebuild them.
 * Manifests written before they were left out still name this one; a restore does not check it.
 */
export const UNCOUNTED_TABLES: ReadonlySet<string> = new Set(['participant_json']);

/** Exact rows per (logged) table of the `public` schema, in one statement (so one snapshot). */
export async function countRows(client: pg.ClientBase): Promise<Record<string, number>> {
  const tables = (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relpersistence = 'p'
        ORDER BY c.relname`,
    )
  ).rows.map((r) => r.name);
  if (tables.length === 0) return {};
  // A union rather than json_build_object, whose 100 arguments would cap it at 50 tables.
  const parts = tables.map(
    (t) =>
      `SELECT '${t.replaceAll("'", "''")}' AS name, (SELECT count(*) FROM public."${t.replaceAll('"', '""')}")::int AS n`,
  );
  const res = await client.query<{ counts: Record<string, number> }>(
    `SELECT json_object_agg(name, n) AS counts FROM (${parts.join(' UNION ALL ')}) c`,
  );
  return res.rows[0]?.counts ?? {};
}
