/**
 * The server process's memory over a window, part by part (bench host; docs/performance.md
 * "Papers"): `process.memoryUsage()` sampled every 20 ms from a baseline taken after a full
 * garbage collection, and once more after a full collection at the end.
 *
 * - `rss`: the whole process. On the embedded database it includes PGlite (a worker thread of this
 *   process): its WebAssembly memory, which only grows, and the pages it caches.
 * - `heapUsed`: the main thread's JavaScript heap (the app: rows, cells, writers).
 * - `external`: memory outside that heap held by the main thread's objects (Buffers, zlib);
 *   `arrayBuffers` is the part of it in ArrayBuffers and Buffers.
 * - `afterMajorGcPeak`: the highest heapUsed and external seen right after one of V8's own major
 *   collections in the window (a 'gc' performance entry), minus the baseline: an estimate of the live
 *   memory at its highest, without the garbage V8 had not yet collected that the plain peaks count.
 *   Null when V8 ran no major collection in the window.
 * - `retained`: each part after the final full collection, minus the baseline: what the window
 *   left behind. A leak grows this with the row count; garbage collected late does not.
 * The collections need the host started with `--expose-gc` (host-client.ts); without it the
 * baseline and `retained` are taken without collecting and `gcForced` is false.
 */
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import type { MemParts, MemStats } from './host-protocol.js';

const PARTS = ['rss', 'heapUsed', 'external', 'arrayBuffers'] as const;
const SAMPLE_MS = 20;

const collect = (): boolean => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return typeof gc === 'function';
};

const parts = (): MemParts => {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
};

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const inMb = (p: MemParts): MemParts =>
  Object.fromEntries(PARTS.map((k) => [k, mb(p[k])])) as unknown as MemParts;

export interface MemWindow {
  stop(): MemStats;
}

/** Collects, takes the baseline and samples until `stop()`. */
export function startMemWindow(): MemWindow {
  const gcForced = collect();
  const start = parts();
  const peak = { ...start };
  const take = () => {
    const now = parts();
    for (const k of PARTS) peak[k] = Math.max(peak[k], now[k]);
  };
  const timer = setInterval(take, SAMPLE_MS);
  let afterMajor: { heapUsed: number; external: number } | null = null;
  const observer = new PerformanceObserver((list) => {
    const major = list
      .getEntries()
      .some(
        (e) => (e as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR,
      );
    if (!major) return;
    const m = process.memoryUsage();
    afterMajor = {
      heapUsed: Math.max(afterMajor?.heapUsed ?? 0, m.heapUsed),
      external: Math.max(afterMajor?.external ?? 0, m.external),
    };
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      clearInterval(timer);
      observer.disconnect();
      const live = afterMajor as { heapUsed: number; external: number } | null;
      take();
      collect();
      const after = parts();
      const diff = (a: MemParts): MemParts =>
        Object.fromEntries(PARTS.map((k) => [k, a[k] - start[k]])) as unknown as MemParts;
      return {
        gcForced,
        startMB: inMb(start),
        peakGrowthMB: inMb(diff(peak)),
        afterMajorGcPeakMB: live
          ? { heapUsed: mb(live.heapUsed - start.heapUsed), external: mb(live.external - start.external) }
          : null,
        retainedMB: inMb(diff(after)),
      };
    },
  };
}
