/**
 * Stopping the job queue while pg-boss's workers wait for a database connection (the embedded
 * database has one, so a fetch queues behind any other query or transaction): stop() returns only
 * once those queries ran, so closing the pool strands none of them. A stranded fetch never settled,
 * its worker never stopped, and pg-boss's stop monitor then polled for it every second forever:
 * `muster import --invite` printed its result but its process never exited.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startWorker } from '../../src/jobs/runner.js';
import { createDeps } from '../../src/server.js';
import { createTestDatabase } from '../support/db.js';

it('closing while job fetches wait for the connection leaves none of them waiting', async () => {
  const database = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...database.env });
  const deps = await createDeps(config, { database: await database.open(config) });
  let closed = false;
  try {
    await startWorker(deps, { pollingIntervalSeconds: 0.5 });
    const pool = deps.database.pool;
    // Hold a connection in a transaction while the workers poll; on the embedded database (one
    // connection) their fetches queue behind it.
    const held = deps.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      await sleep(1_500);
    });
    await sleep(800);
    if (deps.database.kind === 'embedded') expect(pool.waitingCount).toBeGreaterThan(0);
    await Promise.all([held, deps.close()]);
    closed = true;
    expect(pool.waitingCount).toBe(0);
  } finally {
    if (!closed) await deps.close();
    await database.drop();
  }
}, 60_000);
