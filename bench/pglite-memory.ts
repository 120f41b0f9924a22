/**
 * PGlite's own memory over a measured window (bench host, beside bench/memory.ts; docs/performance.md
 * "Papers"). On the embedded database the server's RSS also holds PGlite: its WebAssembly memory
 * (which only grows) and its worker thread's JavaScript heap, neither of which the main thread's
 * `process.memoryUsage()` heap and external figures include. The worker is asked
 * (`Database.memory`) at the start, every 250 ms while the window is open (it answers between
 * queries, so a long query delays a sample) and at the end. All figures in MB: each part at the
 * start, its highest growth above the start, and its growth at the end. No window on PostgreSQL.
 */
import type { EmbeddedMemory } from '../src/db/embedded/embedded.js';

const SAMPLE_MS = 250;

export interface PgliteParts {
  /** WebAssembly memory (null: PGlite did not expose it). */
  wasm: number | null;
  /** The worker thread's JavaScript heap in use. */
  heap: number;
}

export interface PgliteStats {
  startMB: PgliteParts;
  peakGrowthMB: PgliteParts;
  endGrowthMB: PgliteParts;
  samples: number;
}

export interface PgliteWindow {
  stop(): Promise<PgliteStats | null>;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Starts sampling `memory` (the embedded Database's); null when there is none (PostgreSQL). */
export function startPgliteWindow(memory?: () => Promise<EmbeddedMemory | undefined>): PgliteWindow | null {
  if (!memory) return null;
  const seen: EmbeddedMemory[] = [];
  const first = memory().then((m) => m && seen.push(m));
  let open = true;
  const loop = (async () => {
    await first;
    while (open) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      const m = open ? await memory() : undefined;
      if (m) seen.push(m);
    }
  })();
  return {
    async stop() {
      open = false;
      await loop;
      const last = await memory();
      if (last) seen.push(last);
      const start = seen[0];
      const end = seen.at(-1);
      if (!start || !end) return null;
      const wasm = (m: EmbeddedMemory) =>
        m.wasmBytes === null || start.wasmBytes === null ? null : mb(m.wasmBytes - start.wasmBytes);
      const top = seen.reduce((p, m) => ({
        wasmBytes: Math.max(p.wasmBytes ?? 0, m.wasmBytes ?? 0),
        heapBytes: Math.max(p.heapBytes, m.heapBytes),
      }));
      return {
        startMB: { wasm: start.wasmBytes === null ? null : mb(start.wasmBytes), heap: mb(start.heapBytes) },
        peakGrowthMB: { wasm: wasm(top), heap: mb(top.heapBytes - start.heapBytes) },
        endGrowthMB: { wasm: wasm(end), heap: mb(end.heapBytes - start.heapBytes) },
        samples: seen.length,
      };
    },
  };
}
