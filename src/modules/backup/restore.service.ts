/**
 * `muster restore FILE --data-dir DIR` (docs/operations.md "Restore drill"): decrypts a backup into
 * a new, empty data folder (embedded) or an empty PostgreSQL database (`DATABASE_URL`, through
 * `pg_restore`), refuses a backup whose newest migration this version of Muster does not know
 * (restore it with that version or a newer one), and checks every table's row count against the
 * manifest before it reports success. Needs no running server.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { startEmbedded } from '../../db/embedded/embedded.js';
import { BackupError, type BackupHeader, keyFor, type Manifest } from './format.js';
import { countRows, newestKnownMigration, UNCOUNTED_TABLES } from './inspect.js';
import { openBackup } from './read.js';

export interface RestoreOptions {
  file: string;
  /** Embedded target: a folder that does not exist yet or is empty. */
  dataDir?: string;
  /** PostgreSQL target: an empty database. */
  databaseUrl?: string;
  passphrase?: string;
  /** Backup keys derived from the server keys the operator supplied (format.ts backupKeysFrom). */
  serverKeys: Buffer[];
}

export interface RestoreResult {
  manifest: Omit<Manifest, 'secret_key'>;
  target: string;
  tables: number;
  rows: number;
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const opened = await openBackup(opts.file, (header: BackupHeader) => keyFor(header, opts));
  const { secret_key: secretKey, ...manifest } = opened.manifest;
  const known = newestKnownMigration();
  if (manifest.migration.when > known.when) {
    throw new BackupError(
      `This backup comes from a newer Muster (migration ${manifest.migration.tag}; this version knows up to ${known.tag}): restore it with Muster ${manifest.muster_version} or later`,
    );
  }
  let counts: Record<string, number>;
  let target: string;
  if (manifest.kind === 'embedded') {
    if (!opts.dataDir)
      throw new BackupError(
        'This is a backup of an embedded database: give --data-dir DIR (a new, empty folder)',
      );
    target = path.resolve(opts.dataDir);
    if (existsSync(target) && (await readdir(target)).length > 0)
      throw new BackupError(`${target} is not empty: restore into a new, empty folder`);
    counts = await restoreEmbedded(target, opened.body);
    if (secretKey) await writeFile(path.join(target, 'secret.key'), secretKey, { mode: 0o600 });
  } else {
    if (!opts.databaseUrl)
      throw new BackupError(
        'This is a backup of a PostgreSQL database: set DATABASE_URL to an empty database',
      );
    target = 'DATABASE_URL';
    counts = await restorePostgres(opts.databaseUrl, opened.body);
  }
  const wrong = Object.entries(manifest.row_counts).filter(
    ([table, n]) => !UNCOUNTED_TABLES.has(table) && counts[table] !== n,
  );
  if (wrong.length > 0) {
    throw new BackupError(
      `The restored database does not match the backup's manifest: ${wrong.map(([t, n]) => `${t} ${counts[t] ?? 'missing'} ≠ ${n}`).join(', ')}`,
    );
  }
  return {
    manifest,
    target,
    tables: Object.keys(counts).length,
    rows: Object.values(counts).reduce((a, b) => a + b, 0),
  };
}

async function restoreEmbedded(dir: string, body: AsyncGenerator<Buffer>): Promise<Record<string, number>> {
  await mkdir(dir, { recursive: true });
  const tar = path.join(dir, 'restore.tar');
  try {
    await pipeline(Readable.from(body), createGunzip(), createWriteStream(tar, { mode: 0o600 }));
    const server = await startEmbedded(dir, 2, { snapshot: tar });
    try {
      const client = new pg.Client({
        host: server.host,
        port: server.port,
        user: 'postgres',
        database: 'postgres',
      });
      await client.connect();
      try {
        return await countRows(client);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  } catch (error) {
    await rm(path.join(dir, 'pg'), { recursive: true, force: true });
    throw error;
  } finally {
    await rm(tar, { force: true });
  }
}

async function restorePostgres(url: string, body: AsyncGenerator<Buffer>): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const existing = await client.query("SELECT 1 FROM pg_tables WHERE schemaname = 'public' LIMIT 1");
    if (existing.rowCount)
      throw new BackupError('The database in DATABASE_URL is not empty: restore into a new, empty database');
    const child = spawn('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${url}`], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    const exited = new Promise<number>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ENOENT'
            ? new BackupError('pg_restore is not installed (PostgreSQL client tools)')
            : error,
        ),
      );
      child.once('close', (code) => resolve(code ?? 1));
    });
    await pipeline(Readable.from(body), child.stdin);
    if ((await exited) !== 0)
      throw new BackupError(`pg_restore failed: ${stderr.replaceAll(url, '<DATABASE_URL>').trim()}`);
    return await countRows(client);
  } finally {
    await client.end();
  }
}
