/**
 * Taking a backup (docs/operations.md "Backups"). Embedded database: the data folder's image, taken
 * by PGlite's own dump while the process's single connection is held inside a REPEATABLE READ
 * transaction that also counts every table, so the counts and the image show the same moment and
 * no write can fall between them (requests wait for the connection meanwhile: about a second per
 * 100 MB of data). PostgreSQL: `pg_dump --format=custom` on a snapshot exported by the transaction
 * that counts the rows. Either way the file is compressed, encrypted (format.ts) and written to
 * `<out>.partial` first, then renamed, so a file with the final name is always complete.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type pg from 'pg';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { musterVersion } from '../../lib/project-root.js';
import type { Sealer } from '../../lib/sealed.js';
import { BACKUP_KEY_INFO, BackupError, encrypt, type Manifest, newBackupKey } from './format.js';
import { appliedMigration, countRows } from './inspect.js';

export interface BackupDeps {
  readonly config: Pick<Config, 'databaseUrl' | 'dataDir' | 'backup'>;
  readonly database: Database;
  readonly sealer: Pick<Sealer, 'deriveKeys' | 'source'>;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Omit<Manifest, 'secret_key'>;
}

/** Writes an encrypted backup to `out` (a file path); returns its path, size and manifest. */
export async function createBackup(deps: BackupDeps, out: string): Promise<BackupResult> {
  const file = path.resolve(out);
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  const client = await deps.database.pool.connect();
  try {
    const manifest =
      deps.database.kind === 'embedded'
        ? await backupEmbedded(deps, client, partial)
        : await backupPostgres(deps, client, partial);
    await rename(partial, file);
    const { secret_key: _secret, ...shown } = manifest;
    return { file, bytes: (await stat(file)).size, manifest: shown };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    client.release();
  }
}

async function beginManifest(deps: BackupDeps, client: pg.PoolClient): Promise<Manifest> {
  return {
    format: 1,
    created_at: new Date().toISOString(),
    muster_version: musterVersion(),
    migration: await appliedMigration(client),
    kind: deps.database.kind,
    row_counts: await countRows(client),
  };
}

function keyAndHeader(deps: BackupDeps) {
  return newBackupKey({
    passphrase: deps.config.backup.passphrase,
    serverKeys: deps.sealer.deriveKeys(BACKUP_KEY_INFO),
  });
}

async function backupEmbedded(deps: BackupDeps, client: pg.PoolClient, partial: string): Promise<Manifest> {
  const dump = deps.database.dump;
  if (!dump) throw new BackupError('This database cannot be dumped');
  const tar = `${partial}.tar`;
  try {
    await client.query('CHECKPOINT');
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const manifest = await beginManifest(deps, client);
    await dump(tar);
    await client.query('COMMIT');
    // The data folder's own key travels only inside passphrase backups, where it is not the key.
    if (deps.config.backup.passphrase && deps.sealer.source === 'file') {
      const { readFile } = await import('node:fs/promises');
      manifest.secret_key = (
        await readFile(path.join(path.resolve(deps.config.dataDir), 'secret.key'), 'utf8')
      ).trim();
    }
    const { key, header } = keyAndHeader(deps);
    const gz = createReadStream(tar).pipe(createGzip({ level: 6 }));
    await pipeline(encrypt(key, header, manifest, gz), createWriteStream(partial, { mode: 0o600 }));
    return manifest;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await rm(tar, { force: true });
  }
}

async function backupPostgres(deps: BackupDeps, client: pg.PoolClient, partial: string): Promise<Manifest> {
  const url = deps.config.databaseUrl;
  if (!url) throw new BackupError('DATABASE_URL is not set');
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]?.id;
    const manifest = await beginManifest(deps, client);
    const child = spawn(
      'pg_dump',
      ['--format=custom', '--no-owner', `--snapshot=${snapshot}`, `--dbname=${url}`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    const exited = new Promise<number>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ENOENT'
            ? new BackupError('pg_dump is not installed (PostgreSQL client tools)')
            : error,
        ),
      );
      child.once('close', (code) => resolve(code ?? 1));
    });
    const { key, header } = keyAndHeader(deps);
    await Promise.all([
      pipeline(encrypt(key, header, manifest, child.stdout), createWriteStream(partial, { mode: 0o600 })),
      exited.then((code) => {
        if (code !== 0)
          throw new BackupError(`pg_dump failed: ${stderr.replaceAll(url, '<DATABASE_URL>').trim()}`);
      }),
    ]);
    return manifest;
  } finally {
    await client.query('COMMIT').catch(() => {});
  }
}

/** Deletes the oldest `muster-*.muster-backup` files in `dir` beyond the newest `keep`. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^muster-.*\.muster-backup$/.test(f)).sort();
  const removed = files.slice(0, Math.max(0, files.length - keep));
  for (const f of removed) await rm(path.join(dir, f), { force: true });
  return removed;
}

/** File name of a scheduled backup: sortable by time. */
export const scheduledName = (at = new Date()) =>
  `muster-${at.toISOString().replace(/[:.]/g, '-')}.muster-backup`;
