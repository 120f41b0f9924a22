/**
 * One fresh database per test file, copied from the run's migrated template (test/support/template.ts,
 * built once by the vitest globalSetup). With `DATABASE_URL` set, a throw-away database
 * `muster_t_<random>` is created on that server from the template database (connecting to the URL's
 * own database to do so) and dropped afterwards; otherwise the embedded PGlite runs in memory
 * (`memory://`), started from the template's data-folder tarball. Outside a vitest run (no template
 * provided) the database starts empty and `createDeps` migrates it, as before.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Config } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import type { DatabaseTemplate } from './template.js';

export interface TestDatabase {
  /** Environment for loadConfig(): DATABASE_URL or MUSTER_DATA_DIR=memory://. */
  env: Record<string, string>;
  /** The created database's URL (PostgreSQL mode only). */
  url?: string;
  /** Opens it (pass the result to `createDeps(config, { database })`). */
  open(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'>): Promise<Database>;
  drop(): Promise<void>;
}

/** The run's migrated template (test/support/template.ts); `{}` outside a vitest run. */
export function databaseTemplate(): DatabaseTemplate {
  try {
    return inject('databaseTemplate') ?? {};
  } catch {
    return {};
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  const { snapshot, templateDatabase } = databaseTemplate();
  if (!base) {
    return {
      env: { MUSTER_DATA_DIR: 'memory://' },
      open: (config) => openDatabase(config, { snapshot }),
      drop: async () => {},
    };
  }

  const name = `muster_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(
      `CREATE DATABASE "${name}"${templateDatabase ? ` TEMPLATE "${templateDatabase}"` : ''}`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    open: (config) => openDatabase(config),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
