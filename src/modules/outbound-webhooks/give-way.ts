/**
 * Deliveries give way to the door (docs/webhooks.md "Giving way"). In a process that also serves
 * the API (`muster serve` with its in-process worker), a burst of check-ins would otherwise share
 * the process, and the database, with three HTTP deliveries per scan and their writes. The
 * dispatcher claims nothing while the process is busy serving, and looks again after its poll
 * interval; the deliveries stay due in the outbox and go out as soon as the burst has passed.
 * Busy means any of:
 * - at least `busyRequests` API requests in progress in this process (lib/api-load.ts): requests
 *   queueing, whether the process or the database is the bottleneck;
 * - the event loop's utilization since the last look (over at least WINDOW_MS) at or above
 *   BUSY_UTILIZATION: the process itself saturated;
 * - at least `busySessions` other sessions of the database running a statement or holding a
 *   transaction open (`pg_stat_activity`; the dispatcher passes MUSTER_DB_POOL_SIZE: a web
 *   process's whole pool at work, its requests queueing for a connection), which is what a
 *   separate `muster worker` sees of the door. Read only when the first two say idle.
 * A wait lasts at most `maxDeferMs` in a row: then one claim round runs whatever the load (so
 * deliveries always make progress), and the wait starts again. `maxDeferMs` 0 turns it off.
 */
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiLoad } from '../../lib/api-load.js';

/** Event-loop utilization (0–1, busy time over elapsed time) at which deliveries wait. */
export const BUSY_UTILIZATION = 0.9;
/**
 * The shortest window (ms) the utilization is judged over; looks closer together reuse the last
 * judgement (a window of a few ms, taken from inside the loop, always reads as busy).
 */
export const WINDOW_MS = 100;

/** What the judgement reads; tests pass their own. */
export interface LoadSources {
  /** The event loop's cumulative utilization (`performance.eventLoopUtilization()`). */
  utilization(): EventLoopUtilization;
  /** API requests in progress in this process. */
  requests(): number;
  /** Other database sessions running a statement or inside a transaction. */
  sessions(): Promise<number>;
}

/** The process's own load, and its database's sessions read through `db`. */
export function processLoad(db: Db): LoadSources {
  return {
    utilization: () => performance.eventLoopUtilization(),
    requests: () => apiLoad.inProgress(),
    sessions: async () => {
      try {
        const res = await db.execute<{ n: number }>(sql`
          SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid()
             AND state IN ('active', 'idle in transaction')`);
        return res.rows[0]?.n ?? 0;
      } catch {
        return 0; // the database unreachable: the claim that follows fails and is logged
      }
    },
  };
}

export interface GiveWay {
  /** True when the dispatcher should claim nothing now (busy, and the wait not over). */
  shouldWait(nowMs?: number): Promise<boolean>;
}

export function createGiveWay(
  opts: { maxDeferMs: number; busyRequests: number; busySessions: number },
  load: LoadSources,
  startMs = performance.now(),
): GiveWay {
  let last = load.utilization();
  let lastAt = startMs - WINDOW_MS; // the first look judges (a loop just started reads as busy)
  let saturated = false;
  let waitingSince: number | undefined;
  return {
    async shouldWait(nowMs = performance.now()) {
      if (opts.maxDeferMs === 0) return false;
      if (nowMs - lastAt >= WINDOW_MS) {
        const current = load.utilization();
        saturated = performance.eventLoopUtilization(current, last).utilization >= BUSY_UTILIZATION;
        last = current;
        lastAt = nowMs;
      }
      const busy =
        saturated || load.requests() >= opts.busyRequests || (await load.sessions()) >= opts.busySessions;
      if (!busy) {
        waitingSince = undefined;
        return false;
      }
      waitingSince ??= nowMs;
      if (nowMs - waitingSince < opts.maxDeferMs) return true;
      waitingSince = undefined; // one round now; the next busy look starts a new wait
      return false;
    },
  };
}
