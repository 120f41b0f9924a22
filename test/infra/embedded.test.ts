/** Embedded database: the data-folder lock and the data surviving a restart. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { DataDirLockedError } from '../../src/db/embedded/embedded.js';
import { runMigrations } from '../../src/db/migrate.js';

const dir = mkdtempSync(path.join(tmpdir(), 'muster-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded database folder', () => {
  it('refuses a second opener of the same folder with a clear message, and keeps data across restarts', async () => {
    const first = await openDatabase({ dataDir: dir, databaseUrl: undefined, dbPoolSize: 1 });
    await runMigrations(first.db);
    await first.db.execute(sql`INSERT INTO series (slug, name) VALUES ('kept', 'Kept')`);

    const second = openDatabase({ dataDir: dir, databaseUrl: undefined, dbPoolSize: 1 });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(/in use by another Muster process/);

    await first.close();
    const reopened = await openDatabase({ dataDir: dir, databaseUrl: undefined, dbPoolSize: 1 });
    const res = await reopened.db.execute<{ name: string }>(sql`SELECT name FROM series WHERE slug = 'kept'`);
    expect(res.rows).toEqual([{ name: 'Kept' }]);
    await reopened.close();
  }, 180_000); // two embedded start-ups (initdb on disk): slow on a loaded 2-core machine
});
