/**
 * MUSTER_WORKER_NICE (docs/operations.md "Processes"):
 * - `muster worker` with an out-of-range value refuses to start, naming the variable (both databases);
 * - `muster worker` started with MUSTER_WORKER_NICE=10 runs at nice 10, every thread of it
 *   (/proc/<pid>/task/<tid>/stat field 19). PostgreSQL only: the embedded database admits a
 *   single process, so `muster worker` runs only against PostgreSQL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, runCli, singleJson, type TestDatabase } from '../cli/harness.js';
import { killAll, startMuster } from '../support/processes.js';

afterAll(killAll);
const onPostgres = Boolean(process.env.DATABASE_URL);

/** Field 19 (nice) of a /proc stat line; the fields after the `(comm)` start at field 3. */
function niceOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('MUSTER_WORKER_NICE', { timeout: 300_000 }, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  }, 60_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  it('`muster worker` refuses an out-of-range value and names the variable', async () => {
    const run = await runCli(db, ['worker', '--json'], { MUSTER_WORKER_NICE: '20' });
    expect(run.code).toBe(1);
    expect(singleJson(run.stdout).error).toMatch(/MUSTER_WORKER_NICE/);
  });

  it.skipIf(!onPostgres || process.platform !== 'linux')(
    '`muster worker` with MUSTER_WORKER_NICE=10 runs at nice 10, all its threads',
    async () => {
      const worker = startMuster(['worker', '--json'], { ...db.env, MUSTER_WORKER_NICE: '10' });
      try {
        const started = await worker.started();
        expect(started).toMatchObject({ worker: 'running' });
        const pid = worker.child.pid!;
        expect(niceOf(`/proc/${pid}/stat`)).toBe(10);
        const tasks = readdirSync(`/proc/${pid}/task`);
        expect(tasks.length).toBeGreaterThan(1);
        expect(tasks.map((tid) => niceOf(`/proc/${pid}/task/${tid}/stat`))).toEqual(tasks.map(() => 10));
      } finally {
        expect((await worker.stop('SIGTERM')).code).toBe(0);
      }
    },
  );
});
