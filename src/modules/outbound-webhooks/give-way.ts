/**
 * Deliveries give way to the door (docs/webhooks.md "Giving way"). In a process that also serves
 * the API (`muster serve` with its in-process worker), a burst of check-ins would otherwise share
 * the process, and the database, with three HTTP deliveries per scan and their writes. The
 * dispatcher claims nothing while the process is busy serving, and looks again after its poll
 * interval; the deliveries stay due in the outbox and go out as soon as the burst has passed.
 * Busy means either of:
 * - at least `busyRequests` API requests in progress in this process (lib/api-load.ts): requests
 *   queueing, whether the process or the database is the bottleneck;
 * - the event loop's utilization since the last look (over at least WINDOW_MS) at or above
 *   BUSY_UTILIZATION: the process itself saturated.
 * A wait lasts at most `maxDeferMs` in a row: then one claim round runs whatever the load (so
 * deliveries always make progress), and the wait starts again. `maxDeferMs` 0 turns it off.
 */
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
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
}

export const processLoad: LoadSources = {
  utilization: () => performance.eventLoopUtilization(),
  requests: () => apiLoad.inProgress(),
};

export interface GiveWay {
  /** True when the dispatcher should claim nothing now (the process is busy and the wait not over). */
  shouldWait(nowMs?: number): boolean;
}

export function createGiveWay(
  opts: { maxDeferMs: number; busyRequests: number },
  load: LoadSources = processLoad,
  startMs = performance.now(),
): GiveWay {
  let last = load.utilization();
  let lastAt = startMs - WINDOW_MS; // the first look judges (a loop just started reads as busy)
  let saturated = false;
  let waitingSince: number | undefined;
  return {
    shouldWait(nowMs = performance.now()) {
      if (opts.maxDeferMs === 0) return false;
      if (nowMs - lastAt >= WINDOW_MS) {
        const current = load.utilization();
        saturated = performance.eventLoopUtilization(current, last).utilization >= BUSY_UTILIZATION;
        last = current;
        lastAt = nowMs;
      }
      if (!saturated && load.requests() < opts.busyRequests) {
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
