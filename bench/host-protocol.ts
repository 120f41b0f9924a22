/**
 * The bench host: a child process that owns the database (PostgreSQL pool or the embedded PGlite
 * server, whose data folder only one process may open) and runs both servers under test — the real
 * app and the floor — so the load generator (the parent, autocannon) never shares their event loop.
 * The parent drives it over IPC with these calls.
 */
import type { PgliteStats } from './pglite-memory.js';
import type { BenchEvent } from './seed-large.js';

export type DbKind = 'pg' | 'pglite';
export type DbTarget = { kind: 'pg'; url: string } | { kind: 'pglite'; dataDir: string };

export interface Servers {
  /** Base URL of the Muster app (buildApp + listen on 127.0.0.1:0). */
  appUrl: string;
  /** Base URL of the floor server (bare node:http + one SQL statement). */
  floorUrl: string;
}

export interface OpenResult extends Servers {
  event: BenchEvent;
  serverVersion: string;
  poolSize: number;
}

/** Event-loop delay (perf_hooks.monitorEventLoopDelay) over a window, in milliseconds. */
export interface ElStats {
  samples: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Resident set size of the server process when sampling started, and its peak growth (MB). */
  rssStartMB?: number;
  rssGrowthMB?: number;
  /** Garbage-collection pauses of the server process in the window (perf_hooks 'gc' entries). */
  gc?: { count: number; totalMs: number; maxMs: number; majorCount: number };
}

/** Parts of `process.memoryUsage()` (bytes, or MB where named so). */
export interface MemParts {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Memory of the server process over a window, by part (bench/memory.ts says what each part is). */
export interface MemStats {
  /** Whether the baseline and `retainedMB` were taken after a full garbage collection. */
  gcForced: boolean;
  /** Each part at the start (after a full collection), MB. */
  startMB: MemParts;
  /** Each part's peak during the window minus its start, MB. */
  peakGrowthMB: MemParts;
  /** heapUsed and external right after V8's own major collections, highest, minus the start (MB). */
  afterMajorGcPeakMB: { heapUsed: number; external: number } | null;
  /** Each part after a full collection at the end minus its start, MB: what the window left behind. */
  retainedMB: MemParts;
  /** Embedded database only: PGlite's WebAssembly memory and worker heap (bench/pglite-memory.ts). */
  pglite?: PgliteStats | null;
}

export interface HostApi {
  /** Opens the database and servers; `reset` first removes a previous bench seed. */
  open(args: { target: DbTarget; reset: boolean }): Promise<OpenResult>;
  /** Grows the bench event to `target` registrations (see seed-large.ts). */
  grow(args: { target: number; batchSize: number }): Promise<{ added: number; seconds: number; n: number }>;
  /** One statement on the app's pool. */
  query(args: { text: string; params: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
  /** Statements run in order on one connection inside a transaction that is rolled back. */
  script(args: {
    statements: { text: string; params: unknown[] }[];
  }): Promise<{ rows: Record<string, unknown>[] }[]>;
  /** (Re)fills the floor's table of precomputed participant JSON for the bench event. */
  refreshFloor(): Promise<{ rows: number; seconds: number }>;
  /** The `Cookie` header of a web session holding the bench admin's mobile token (staff pages). */
  sessionCookie(): Promise<{ cookie: string }>;
  elStart(): Promise<void>;
  elStop(): Promise<ElStats>;
  /** Memory by part over a window (bench/memory.ts): full collection, baseline, 20 ms samples. */
  memStart(): Promise<void>;
  memStop(): Promise<MemStats>;
  /**
   * PGlite only: stops the servers and the embedded worker, opens the same data folder with
   * `new PGlite(dir)` on the host's main thread, runs the statement `repeats` times while sampling
   * event-loop delay, closes it and restarts everything (new URLs).
   */
  inProcessPglite(args: {
    text: string;
    params: unknown[];
    repeats: number;
  }): Promise<Servers & { el: ElStats; queryMs: number[] }>;
  /** `reset` removes the bench seed before closing (user-supplied databases). */
  close(args: { reset: boolean }): Promise<void>;
}

export type HostMethod = keyof HostApi;
export interface HostRequest {
  id: number;
  method: HostMethod;
  arg: unknown;
}
export type HostResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string };
