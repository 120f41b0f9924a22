/**
 * Deliveries give way to the door (docs/webhooks.md "Delivery", "Giving way"). In a process that
 * also serves the API (`muster serve` with its in-process worker), a burst of check-ins that
 * saturates the event loop would otherwise share it with three HTTP deliveries per scan and their
 * database writes. While the event loop's utilization since the last look is at or above
 * `BUSY_UTILIZATION`, the dispatcher claims nothing and looks again after its poll interval; the
 * deliveries stay in the outbox, due, and go out as soon as the loop has room. A wait lasts at most
 * `maxDeferMs` in a row: then one claim round runs whatever the load (so deliveries always make
 * progress), and the wait starts again. `maxDeferMs` 0 turns giving way off.
 */
import { type EventLoopUtilization, performance } from 'node:perf_hooks';

/** Event-loop utilization (0–1, busy time over elapsed time) at which deliveries wait. */
export const BUSY_UTILIZATION = 0.9;
/**
 * The shortest window (ms) the utilization is judged over; looks closer together reuse the last
 * judgement (a window of a few ms, taken from inside the loop, always reads as busy).
 */
export const WINDOW_MS = 100;

/** Reads the event loop's cumulative utilization; tests pass their own. */
export type UtilizationSource = () => EventLoopUtilization;

export interface GiveWay {
  /** True when the dispatcher should claim nothing now (the loop is busy and the wait is not over). */
  shouldWait(nowMs?: number): boolean;
}

export function createGiveWay(
  maxDeferMs: number,
  source: UtilizationSource = () => performance.eventLoopUtilization(),
  startMs = performance.now(),
): GiveWay {
  let last = source();
  let lastAt = startMs - WINDOW_MS; // the first look judges (a loop just started reads as busy)
  let busy = false;
  let waitingSince: number | undefined;
  return {
    shouldWait(nowMs = performance.now()) {
      if (maxDeferMs === 0) return false;
      if (nowMs - lastAt >= WINDOW_MS) {
        const current = source();
        busy = performance.eventLoopUtilization(current, last).utilization >= BUSY_UTILIZATION;
        last = current;
        lastAt = nowMs;
      }
      if (!busy) {
        waitingSince = undefined;
        return false;
      }
      waitingSince ??= nowMs;
      if (nowMs - waitingSince < maxDeferMs) return true;
      waitingSince = undefined; // one round now; the next busy look starts a new wait
      return false;
    },
  };
}
