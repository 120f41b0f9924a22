/**
 * Embedded database: the data-folder lock, the data surviving a restart, and PGlite's own memory as
 * the bench reads it (bench/memory.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { DataDirLockedError, lockDataDir } from '../../src/db/embedded/embedded.js';
import { runMigrations } from '../../src/db/migrate.js';

const dir = mkdtempSync(path.join(tmpdir(), 'muster-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded database folder', () => {
  it('refuses a second opener of the same folder with a clear message, and keeps data across restarts', async () => {
    const first = await openDatabase({ dataDir: dir, databaseUrl: undefined, dbPoolSize: 1 });
    await runMigrations(first.db);
    await first.db.execute(sql`INSERT INTO series (slug, name) VALUES ('kept', 'Kept')`);
    const memory = await first.memory!();
    // PGlite's WebAssembly memory starts at tens of MB; the worker's heap holds PGlite's JavaScript.
    expect(memory?.wasmBytes).toBeGreaterThan(16 * 2 ** 20);
    expect(memory?.heapBytes).toBeGreaterThan(0);

    const second = openDatabase({ dataDir: dir, databaseUrl: undefined, dbPoolSize: 1 });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(/in use by another Muster process/);

    await first.close();
    const reopened = await openDatabase({ dataDir: dir, databaseUrl: undefined, dbPoolSize: 1 });
    const res = await reopened.db.execute<{ name: string }>(sql`SELECT name FROM series WHERE slug = 'kept'`);
    expect(res.rows).toEqual([{ name: 'Kept' }]);
    await reopened.close();
  }, 180_000); // two embedded start-ups (initdb on disk): slow on a loaded 2-core machine

  it('takes over at once the fresh lock of a holder that was killed, and refuses it while the holder runs', async () => {
    // What a SIGKILLed `muster serve` leaves: a lock folder refreshed moments ago (far from the
    // 15 s staleness) whose owner.json names a process of this machine.
    const folder = mkdtempSync(path.join(tmpdir(), 'muster-killed-'));
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      mkdirSync(path.join(folder, 'muster.lock'));
      writeFileSync(
        path.join(folder, 'muster.lock', 'owner.json'),
        JSON.stringify({ pid: holder.pid, hostname: hostname() }),
      );
      // Refreshed "in a minute": the lock cannot go stale during this test, so taking it over
      // proves the take-over does not wait for staleness (it would outlast the test's timeout).
      const future = new Date(Date.now() + 60_000);
      utimesSync(path.join(folder, 'muster.lock'), future, future);
      await expect(lockDataDir(folder)).rejects.toThrow(/in use by another Muster process/);

      holder.kill('SIGKILL');
      await exited;
      const release = await lockDataDir(folder);
      const owner = JSON.parse(readFileSync(path.join(folder, 'muster.lock', 'owner.json'), 'utf8'));
      expect(owner).toEqual({ pid: process.pid, hostname: hostname() });
      await release();
    } finally {
      holder.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
