/**
 * Builds the migrated database every test file starts from, once per `vitest` run (globalSetup), so
 * no file pays for initdb, the migrations and the job-queue schema (seconds each, per file):
 * - embedded: a tarball of an in-memory PGlite data folder after `createDeps` (migrations, pg-boss
 *   schema, default OAuth clients), cached in `node_modules/.cache/muster-test/` under a hash of
 *   `drizzle/` and the PGlite and pg-boss versions, so later runs skip even that;
 * - PostgreSQL (`DATABASE_URL`): a database `muster_tpl_<random>` that each file's database is
 *   created from (`CREATE DATABASE … TEMPLATE`), dropped when the run ends.
 * Each file still migrates its own database at start-up (a no-op on an up-to-date one), so a stale
 * template only costs time, never correctness.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { createDeps } from '../../src/server.js';

export interface DatabaseTemplate {
  /** Embedded: path of the data-folder tarball. */
  snapshot?: string;
  /** PostgreSQL: name of the template database. */
  templateDatabase?: string;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Hash of everything that shapes the migrated schema: the migrations and the two engines' versions. */
function schemaKey(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(entry.name).update(readFileSync(file));
    }
  };
  hash.update(SNAPSHOT_LAYOUT);
  walk(path.join(ROOT, 'drizzle'));
  for (const pkg of ['@electric-sql/pglite', 'pg-boss']) {
    hash.update(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json')));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Changes whenever the snapshot is built differently from the same migrations (names the file). */
const SNAPSHOT_LAYOUT = 'no template databases';

/**
 * PGlite's cluster holds three databases of ~9 MB each: `postgres`, which Muster uses, and the
 * `template0`/`template1` that only `CREATE DATABASE` reads, which nothing does on the embedded
 * database. Dropping them shrinks the snapshot from 45 MB to 30 MB, and every test file's start
 * from it (unpacking the tarball into PGlite's in-memory file system) by ~30%: ~0.2 s per file.
 */
async function dropTemplateDatabases(database: Database): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await database.pool.query(
      `UPDATE pg_database SET datistemplate = false, datallowconn = true WHERE datname = '${name}'`,
    );
    await database.pool.query(`DROP DATABASE ${name}`);
  }
  await database.pool.query('CHECKPOINT');
}

async function buildSnapshot(): Promise<string> {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'muster-test');
  const file = path.join(dir, `embedded-${schemaKey()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const config = loadConfig({ LOG_LEVEL: 'silent', MUSTER_DATA_DIR: 'memory://' });
  const database = await openDatabase(config);
  const deps = await createDeps(config, { database });
  try {
    // Written aside and renamed: a concurrent run never reads a half-written file.
    const partial = `${file}.${process.pid}.partial`;
    await deps.jobs.stop();
    await dropTemplateDatabases(database);
    await database.dump?.(partial);
    renameSync(partial, file);
  } finally {
    await deps.close();
  }
  return file;
}

async function buildTemplateDatabase(base: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `muster_tpl_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const deps = await createDeps(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url.toString() }));
  await deps.close(); // no session may stay connected to a template while it is copied
  return { name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** Builds the template for this run; returns it and the teardown that removes it. */
export async function buildDatabaseTemplate(): Promise<{
  template: DatabaseTemplate;
  teardown(): Promise<void>;
}> {
  const base = process.env.DATABASE_URL;
  if (!base) return { template: { snapshot: await buildSnapshot() }, teardown: async () => {} };
  const built = await buildTemplateDatabase(base);
  return { template: { templateDatabase: built.name }, teardown: built.drop };
}
