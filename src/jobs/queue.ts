/**
 * The job queue: pg-boss on the application's own database. `enqueue(tx, …)` runs pg-boss's insert
 * through the caller's Drizzle transaction, so a job exists if and only if the write that caused it
 * committed (architecture: "enqueued in the writing transaction").
 */
import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database, Tx } from '../db/client.js';
import { withMigrationLock } from '../db/migrate.js';
import { DEAD_LETTER_QUEUE, type JobName, type JobPayloads, QUEUES } from './definitions.js';

export interface JobInfo {
  id: string;
  retryCount: number;
  retryLimit: number;
}

export interface Jobs {
  enqueue<N extends JobName>(
    tx: Tx,
    name: N,
    data: JobPayloads[N],
    /** `startAfter`: a delay in seconds, or a time. */
    opts?: { singletonKey?: string; startAfter?: number | Date },
  ): Promise<void>;
  work<N extends JobName>(
    name: N,
    handler: (data: JobPayloads[N], job: JobInfo) => Promise<void>,
    opts?: { batchSize?: number; pollingIntervalSeconds?: number; concurrency?: number },
  ): Promise<void>;
  /** Runs `name` on a cron schedule (UTC), once across all workers (pg-boss schedules; workers only). */
  schedule(name: JobName, cron: string): Promise<void>;
  /**
   * Installs or upgrades pg-boss's schema and creates the queues (under the migration lock), then
   * starts pg-boss. Idempotent: every other method awaits it, so a process may call it after it
   * started listening and a request that enqueues earlier simply waits for it.
   */
  start(): Promise<void>;
  /** True once start() has completed (GET /readyz answers 503 before). */
  readonly running: boolean;
  stop(): Promise<void>;
  /** True once stop() was called: long-running handlers (chat blasts) return at a safe point. */
  readonly stopping: boolean;
  readonly boss: PgBoss;
}

/** How long stop() lets active jobs finish before failing them back to the queue (ms). */
export const JOB_STOP_TIMEOUT_MS = 5_000;

/**
 * How long stop() then waits, at most, for pg-boss's workers to finish what they had started: a
 * fetch already sent (still waiting for a connection on a busy pool), the jobs it returned, their
 * completions (ms).
 */
export const JOB_SETTLE_TIMEOUT_MS = 4_000;

/**
 * pg-boss SQL text with $n placeholders → a Drizzle SQL value bound to the same parameters.
 * A placeholder used several times stays one parameter: Drizzle numbers its parameters in order of
 * appearance, so the first use of `$n` binds the value and later uses name that parameter's number.
 * (Binding each use separately let PostgreSQL give each its own type: pg-boss's insert uses
 * `start_after` as text, as a timestamp and as an interval, and a delayed send then failed with
 * "invalid input syntax for type timestamp with time zone".)
 */
export function toDrizzleSql(text: string, values: readonly unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const bound = new Map<number, number>();
  const chunks: SQL[] = parts.map((part, i) => {
    if (i % 2 === 0) return sql.raw(part);
    const n = Number(part);
    const known = bound.get(n);
    if (known !== undefined) return sql.raw(`$${known}`);
    bound.set(n, bound.size + 1);
    return sql`${values[n - 1] ?? null}`;
  });
  return sql.join(chunks, sql.raw(''));
}

function executorFor(tx: Tx) {
  return { executeSql: async (text: string, values?: unknown[]) => tx.execute(toDrizzleSql(text, values)) };
}

/**
 * The job API, not started yet (see Jobs.start). `supervise` runs pg-boss maintenance and cron
 * schedules (processes that run the worker).
 */
export function createJobs(database: Database, log: Logger, opts: { supervise: boolean }): Jobs {
  /** pg-boss's own queries on the pool (fetches, completions) that have not settled yet. */
  const queries = new Set<Promise<unknown>>();
  const executeSql = (text: string, values?: unknown[]) => {
    const query = database.pool.query(text, values);
    queries.add(query);
    const settled = () => queries.delete(query);
    query.then(settled, settled);
    return query;
  };
  const boss = new PgBoss({
    db: { executeSql },
    supervise: opts.supervise,
    // Cron schedules (the retention job) are kept by the processes that run the worker.
    schedule: opts.supervise,
    migrate: true,
  });
  boss.on('error', (error: Error) => log.error({ err: error }, 'job queue error'));
  let started: Promise<void> | undefined;
  let running = false;
  const start = () => {
    // Schema install and queue creation race between processes starting together (both see a
    // queue missing and insert it): one at a time, under the migration lock.
    started ??= withMigrationLock(database, async () => {
      await boss.start();
      const existing = new Set((await boss.getQueues()).map((q) => q.name));
      if (!existing.has(DEAD_LETTER_QUEUE)) await boss.createQueue(DEAD_LETTER_QUEUE);
      for (const [name, policy] of Object.entries(QUEUES)) {
        if (!existing.has(name)) await boss.createQueue(name, { name, ...policy });
      }
      running = true;
    });
    return started;
  };
  let stopping = false;
  /** Ids of the jobs this process's handlers are running (released at stop if still running). */
  const active = new Set<string>();
  /**
   * Resolves true once pg-boss has no query in flight and no handler runs other than `released`
   * ones (failed back by pg-boss's stop), or false after `ms`.
   */
  const settle = async (released: ReadonlySet<string>, ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    const busy = () => queries.size > 0 || [...active].some((id) => !released.has(id));
    for (;;) {
      if (!busy()) {
        // What a settled query leads to (a fetch's jobs run, a job's completion is sent) starts in
        // its promise continuations: look again once those ran.
        await new Promise((resolve) => setImmediate(resolve));
        if (!busy()) return true;
      }
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return {
    boss,
    get stopping() {
      return stopping;
    },
    get running() {
      return running;
    },
    start,
    async enqueue(tx, name, data, sendOpts = {}) {
      await start();
      await boss.send(name, data, { ...sendOpts, db: executorFor(tx) });
    },
    async work(name, handler, workOpts = {}) {
      await start();
      await boss.work(
        name,
        {
          batchSize: workOpts.batchSize ?? 1,
          pollingIntervalSeconds: workOpts.pollingIntervalSeconds ?? 1,
          includeMetadata: true,
        },
        async (jobs: PgBoss.JobWithMetadata<JobPayloads[typeof name]>[]) => {
          // With batchSize > 1 a failure fails (and retries) the whole batch, so every job still
          // runs before the first error is rethrown: one poison job never starves its batch-mates.
          // `concurrency` jobs of the batch run at a time (default 1: in order).
          let failure: unknown;
          let next = 0;
          const lane = async () => {
            while (next < jobs.length) {
              const job = jobs[next++]!;
              active.add(job.id);
              try {
                await handler(job.data, {
                  id: job.id,
                  retryCount: job.retryCount,
                  retryLimit: job.retryLimit,
                });
              } catch (error) {
                failure ??= error;
              } finally {
                active.delete(job.id);
              }
            }
          };
          await Promise.all(Array.from({ length: Math.max(1, workOpts.concurrency ?? 1) }, lane));
          if (failure !== undefined) throw failure;
        },
      );
    },
    async schedule(name, cron) {
      await start();
      await boss.schedule(name, cron, {}, { tz: 'UTC' });
    },
    async stop() {
      stopping = true;
      if (!started) return;
      await started.catch(() => {});
      // Active jobs get a few seconds to finish; pg-boss then fails the ones still running back to
      // the queue (an attempt spent, retried after the queue's retry delay). Those are made
      // available at once, so another worker resumes them now, well within the process's stop
      // deadline (cli/stop.ts); their handlers are idempotent.
      await boss.stop({ graceful: true, wait: true, timeout: JOB_STOP_TIMEOUT_MS });
      const released = [...active];
      // pg-boss's stop does not wait for a worker's fetch already sent: on a busy pool (the embedded
      // database has one connection) it is still waiting for the connection. Closing the pool then
      // would leave it waiting forever, its worker would never stop, and pg-boss's stop monitor
      // would poll for that worker every second, keeping the process alive. So wait for them, and
      // for the handlers of any jobs such a fetch returned.
      const settled = await settle(new Set(released), JOB_SETTLE_TIMEOUT_MS);
      if (!settled) {
        log.warn(
          { queries: queries.size, active: active.size },
          'job queue stop: pg-boss queries or job handlers still running; closing anyway',
        );
      }
      if (released.length > 0) {
        await database.pool.query(
          `UPDATE pgboss.job SET start_after = now() WHERE id = ANY($1::uuid[]) AND state = 'retry'`,
          [released],
        );
      }
    },
  };
}
