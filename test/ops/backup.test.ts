/**
 * Backups of the embedded database (docs/operations.md "Backups", "Restore drill"): a backup taken
 * while 50 clients check people in restores into a new folder whose server is healthy and holds
 * every scan acknowledged before the backup began, with every table's row count equal to the
 * manifest's; another secret key cannot open it; a backup from a newer schema is refused; a
 * flipped byte is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createBackup } from '../../src/modules/backup/backup.service.js';
import { BACKUP_KEY_INFO, backupKeysFrom, encrypt, newBackupKey } from '../../src/modules/backup/format.js';
import { newestKnownMigration } from '../../src/modules/backup/inspect.js';
import { restoreBackup } from '../../src/modules/backup/restore.service.js';
import { createDeps } from '../../src/server.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

const embedded = !process.env.DATABASE_URL;
let t: TestApp;
let world: World;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'muster-backup-'));
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!embedded)('backup of the embedded database', () => {
  let file: string;
  const acknowledgedBefore: string[] = [];

  it('is taken while 50 clients check people in', async () => {
    const A = world.events.A.id;
    const regs = await t.deps.db.transaction(async (tx) => {
      const out = [];
      for (let i = 0; i < 200; i++) {
        out.push(
          await addRegistration(tx, {
            eventId: A,
            email: `door${i}@backup.test`,
            firstName: `Door${i}`,
            lastName: 'Backup',
            preferredName: null,
            dateOfBirth: '1990-01-01',
            status: 'complete',
          }),
        );
      }
      return out;
    });
    let backupStarted = false;
    let stop = false;
    let n = 0;
    const client = async (c: number) => {
      while (!stop) {
        const i = n++;
        const id = `c${c}-${i}`;
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/events/${A}/scans`,
          payload: {
            participant_id: regs[i % regs.length]!.id,
            scan_context_id: world.contexts.checkInA,
            client_scan_id: id,
          },
          headers: bearer(world.users.ops.mobile),
        });
        expect(res.statusCode).toBe(200);
        if (!backupStarted) acknowledgedBefore.push(id);
      }
    };
    const clients = Array.from({ length: 50 }, (_, c) => client(c));
    while (acknowledgedBefore.length < 300) await new Promise((r) => setTimeout(r, 20));
    backupStarted = true;
    const result = await createBackup(t.deps, path.join(dir, 'live.muster-backup'));
    const afterBackup = n;
    while (n < afterBackup + 100) await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await Promise.all(clients);
    file = result.file;
    expect(result.manifest.kind).toBe('embedded');
    expect(result.manifest.migration.tag).toBe(newestKnownMigration().tag);
    expect(result.manifest.row_counts.scans).toBeGreaterThanOrEqual(acknowledgedBefore.length);
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('MUSTER-BACKUP 1');
    expect(readFileSync(file).includes(Buffer.from('backup.test'))).toBe(false); // encrypted, no plain text
  }, 300_000);

  it('restores into a new folder: every acknowledged scan, counts as the manifest, a healthy server', async () => {
    const target = path.join(dir, 'restored');
    const restored = await restoreBackup({
      file,
      dataDir: target,
      serverKeys: t.deps.sealer.deriveKeys(BACKUP_KEY_INFO),
    });
    expect(restored.rows).toBeGreaterThan(0);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      MUSTER_DATA_DIR: target,
      MUSTER_SECRET_KEY: `${'A'.repeat(43)}=`,
    });
    const deps = await createDeps(config);
    try {
      const app = await buildApp(deps);
      try {
        expect((await app.inject({ method: 'GET', url: '/api/v1/readyz' })).statusCode).toBe(200);
        const ids = new Set(
          (await deps.database.pool.query<{ id: string }>('SELECT client_scan_id AS id FROM scans')).rows.map(
            (r) => r.id,
          ),
        );
        expect(acknowledgedBefore.filter((id) => !ids.has(id))).toEqual([]);
        const scans = (await deps.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM scans'))
          .rows[0]?.n;
        expect(scans).toBe(restored.manifest.row_counts.scans);
      } finally {
        await app.close();
      }
    } finally {
      await deps.close();
    }
  }, 300_000);

  it('cannot be opened with another secret key, and a flipped byte is refused', async () => {
    const other = backupKeysFrom([Buffer.alloc(32, 7).toString('base64')]);
    await expect(
      restoreBackup({ file, dataDir: path.join(dir, 'other'), serverKeys: other }),
    ).rejects.toThrow(/encrypted with another secret key/);
    const bytes = readFileSync(file);
    const at = bytes.length - 1000;
    bytes[at] = (bytes[at] as number) ^ 1;
    const tampered = path.join(dir, 'tampered.muster-backup');
    writeFileSync(tampered, bytes);
    await expect(
      restoreBackup({
        file: tampered,
        dataDir: path.join(dir, 'tampered'),
        serverKeys: t.deps.sealer.deriveKeys(BACKUP_KEY_INFO),
      }),
    ).rejects.toThrow(/damaged or was altered/);
  }, 120_000);

  it('refuses a backup from a newer schema', async () => {
    const { key, header } = newBackupKey({ serverKeys: t.deps.sealer.deriveKeys(BACKUP_KEY_INFO) });
    const known = newestKnownMigration();
    const manifest = {
      format: 1 as const,
      created_at: new Date().toISOString(),
      muster_version: '9.0.0',
      migration: { tag: '9999_from_the_future', when: known.when + 1 },
      kind: 'embedded' as const,
      row_counts: {},
    };
    const chunks: Buffer[] = [];
    for await (const c of encrypt(key, header, manifest, Readable.from([Buffer.from('not a database')])))
      chunks.push(c);
    const future = path.join(dir, 'future.muster-backup');
    writeFileSync(future, Buffer.concat(chunks));
    await expect(
      restoreBackup({
        file: future,
        dataDir: path.join(dir, 'future'),
        serverKeys: t.deps.sealer.deriveKeys(BACKUP_KEY_INFO),
      }),
    ).rejects.toThrow(/newer Muster \(migration 9999_from_the_future/);
  });
});

describe.skipIf(embedded)('backup of a PostgreSQL database (pg_dump)', () => {
  it('restores into an empty database with every row count of the manifest, and serves from it', async () => {
    const file = path.join(dir, 'pg.muster-backup');
    const taken = await createBackup(t.deps, file);
    expect(taken.manifest.kind).toBe('postgres');
    expect(taken.manifest.row_counts.registrations).toBeGreaterThan(0);
    const name = `muster_restore_${Date.now()}`;
    const base = new URL(process.env.DATABASE_URL as string);
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const target = new URL(base);
    target.pathname = `/${name}`;
    try {
      const restored = await restoreBackup({
        file,
        databaseUrl: target.toString(),
        serverKeys: t.deps.sealer.deriveKeys(BACKUP_KEY_INFO),
      });
      expect(restored.rows).toBe(Object.values(taken.manifest.row_counts).reduce((a, b) => a + b, 0));
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        DATABASE_URL: target.toString(),
        MUSTER_SECRET_KEY: `${'A'.repeat(43)}=`,
      });
      const deps = await createDeps(config);
      try {
        const app = await buildApp(deps);
        try {
          expect((await app.inject({ method: 'GET', url: '/api/v1/readyz' })).statusCode).toBe(200);
          const res = await app.inject({
            method: 'GET',
            url: `/api/v1/events/${world.events.A.id}/participants`,
            headers: bearer(world.secrets.admin),
          });
          expect(res.statusCode).toBe(200);
        } finally {
          await app.close();
        }
      } finally {
        await deps.close();
      }
      // Into a database that is not empty: refused.
      await expect(
        restoreBackup({
          file,
          databaseUrl: target.toString(),
          serverKeys: t.deps.sealer.deriveKeys(BACKUP_KEY_INFO),
        }),
      ).rejects.toThrow();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  }, 300_000);
});
