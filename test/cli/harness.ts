/**
 * CLI test harness: a fresh database per test file (an embedded data folder in a temp directory,
 * or, when DATABASE_URL is set, a new database `muster_cli_<random>` on that server, dropped
 * afterwards) and a runner for the real CLI as a subprocess.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Db, openDatabase } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import { cliArgs } from '../support/cli-build.js';
import { createTestDatabase, databaseTemplate } from '../support/db.js';

/** The MUSTER_SECRET_KEY of CLI subprocesses on PostgreSQL (32 bytes, base64). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 11).toString('base64');

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface TestDatabase {
  /** Environment for CLI subprocesses (MUSTER_DATA_DIR, and DATABASE_URL in PostgreSQL mode). */
  env: NodeJS.ProcessEnv;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Opens the database in this process (never while a CLI subprocess runs: the folder is locked). */
  query<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  cleanup(): Promise<void>;
}

/**
 * A fresh database. Empty by default: the first CLI command initialises the data folder and applies
 * the migrations, as on a user's first run. `migrate: true` gives a migrated one instead, started
 * from the run's template when there is one (the embedded data folder unpacked from the snapshot,
 * or `CREATE DATABASE … TEMPLATE` on PostgreSQL: ~5 s of CPU less than initdb and the migrations in
 * the first command), else migrated here.
 */
export async function freshDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'muster-cli-'));
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  const server = process.env.DATABASE_URL;
  const { snapshot, templateDatabase } = opts.migrate ? databaseTemplate() : {};
  if (server) {
    dbName = `muster_cli_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(
      `CREATE DATABASE ${dbName}${templateDatabase ? ` TEMPLATE "${templateDatabase}"` : ''}`,
    );
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const env: NodeJS.ProcessEnv = { ...process.env, MUSTER_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  if (databaseUrl) {
    env.DATABASE_URL = databaseUrl;
    // On PostgreSQL `serve` and `worker` refuse to start without the shared key.
    env.MUSTER_SECRET_KEY = TEST_SECRET_KEY;
  } else delete env.DATABASE_URL;

  const query = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    const database = await openDatabase({ databaseUrl, dataDir, dbPoolSize: 1 });
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  };
  if (opts.migrate) {
    if (!server && snapshot) {
      // Opening an empty folder with a snapshot unpacks the snapshot into it.
      await (await openDatabase({ databaseUrl, dataDir, dbPoolSize: 1 }, { snapshot })).close();
    } else if (!(server && templateDatabase)) {
      await query((db) => runMigrations(db)); // no template to start from
    }
  }

  return {
    env,
    dataDir,
    databaseUrl,
    query,
    async cleanup() {
      await rm(dataDir, { recursive: true, force: true });
      if (dbName && server) {
        const admin = new pg.Client({ connectionString: server });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `muster <args>` (the compiled CLI, test/support/cli-build.ts) with the database's environment. Killed after 5
 * minutes: a ceiling for a saturated CI machine (an import with --invite, which waits for its
 * emails, was seen past 2 minutes beside the browser suites), not a timing assertion.
 */
export function runCli(db: TestDatabase, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      cliArgs(args),
      { cwd: ROOT, env: { ...db.env, ...extraEnv }, timeout: 300_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A failed run for an error message: its stderr and its stdout (a hang shows whether the result was printed). */
export function describeRun(run: CliRun): string {
  return `${run.stderr}\nstdout: ${run.stdout || '(empty)'}`;
}

/** Runs a `--json` command that must succeed; asserts stdout is exactly one JSON object and returns it. */
export async function runJson(db: TestDatabase, args: string[]): Promise<Record<string, unknown>> {
  const run = await runCli(db, [...args, '--json']);
  if (run.code !== 0) throw new Error(`muster ${args.join(' ')} exited ${run.code}: ${describeRun(run)}`);
  return singleJson(run.stdout);
}

/** Parses stdout that must hold exactly one JSON object on one line. */
export function singleJson(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== 1)
    throw new Error(`expected one line of JSON on stdout, got ${lines.length}:\n${stdout}`);
  const value: unknown = JSON.parse(lines[0]!);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`not a JSON object: ${lines[0]}`);
  return value as Record<string, unknown>;
}

/**
 * Runs `fn` on a fresh migrated database kept open for the whole call (test/support/db.ts: in-memory
 * embedded, or a new PostgreSQL database dropped afterwards when DATABASE_URL is set). For in-process tests.
 */
export async function withFreshDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const fresh = await createTestDatabase();
  const database = await fresh.open({
    databaseUrl: fresh.env.DATABASE_URL,
    dataDir: 'memory://',
    dbPoolSize: 1,
  });
  try {
    await runMigrations(database.db);
    return await fn(database.db);
  } finally {
    await database.close();
    await fresh.drop();
  }
}
