/**
 * Schema migrations at start-up (every process that opens the database: serve, worker, CLI).
 * The committed drizzle-kit migrations in `drizzle/` are applied under a PostgreSQL session advisory
 * lock, so N processes started together on a fresh or outdated database apply them once: the first
 * migrates, the others wait on the lock and then find nothing to do. A database whose applied
 * journal already matches `drizzle/meta/_journal.json` is left alone without taking the lock.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { numberProp, propOf, stringProp } from '../lib/narrow.js';
import { fromRoot } from '../lib/project-root.js';
import type { Database, Db } from './client.js';

export const migrationsFolder = fromRoot('drizzle');

/**
 * Key of the session advisory lock held while migrating or installing the job-queue schema:
 * "muster" in ASCII followed by 0x0001, as a signed 64-bit integer (decimal text for SQL).
 */
export const MIGRATION_LOCK_KEY = ((0x6d7573746572n << 16n) | 1n).toString();

/** Applies the migrations not yet applied (drizzle's migrator; idempotent). No lock: see migrateDatabase. */
export async function runMigrations(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder });
}

/** One entry of the committed journal: the migration's tag and its time (ms since the epoch). */
export interface JournalEntry {
  tag: string;
  when: number;
}

/** The committed journal (`drizzle/meta/_journal.json`), its well-formed entries in order. */
export function journal(): JournalEntry[] {
  const entries = propOf(
    JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')),
    'entries',
  );
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((e: unknown) => {
    const tag = stringProp(e, 'tag');
    const when = numberProp(e, 'when');
    return tag !== undefined && when !== undefined ? [{ tag, when }] : [];
  });
}

/** `when` (ms since the epoch) of the newest migration in the committed journal. */
function newestJournalEntry(): number {
  return Math.max(...journal().map((e) => e.when));
}

/**
 * True when the newest committed migration is already applied (drizzle applies, in journal order,
 * every migration newer than the last one it recorded, so this is exactly "nothing to do").
 * A database without drizzle's bookkeeping table is not up to date.
 */
export async function isUpToDate(db: Db): Promise<boolean> {
  const table = await db.execute<{ present: boolean }>(
    sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`,
  );
  if (table.rows[0]?.present !== true) return false;
  const result = await db.execute<{ last: string | null }>(
    sql`SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations`,
  );
  const last = result.rows[0]?.last;
  return last !== null && last !== undefined && Number(last) >= newestJournalEntry();
}

/**
 * Runs `fn` while holding the migration advisory lock on a connection of its own (PostgreSQL), so
 * `fn` may use the pool freely; other processes block in `pg_advisory_lock` until it returns.
 * On the embedded database `fn` runs directly: its folder lock already admits a single process.
 */
export async function withMigrationLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  if (database.kind === 'embedded') return fn();
  const client = new pg.Client(database.pool.options);
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    return await fn();
  } finally {
    // Closing the session releases the lock even if the unlock below cannot be sent.
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => {});
    await client.end().catch(() => {});
  }
}

/**
 * Brings the schema up to date: returns 'up_to_date' at once when the applied journal matches,
 * otherwise migrates under the lock (re-checked there: another process may have just done it).
 */
export async function migrateDatabase(database: Database): Promise<'up_to_date' | 'migrated'> {
  if (await isUpToDate(database.db)) return 'up_to_date';
  return withMigrationLock(database, async () => {
    if (await isUpToDate(database.db)) return 'up_to_date';
    await runMigrations(database.db);
    return 'migrated';
  });
}
