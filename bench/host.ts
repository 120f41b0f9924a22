/**
 * Child-process entry of the bench host (see host-protocol.ts). Started by host-client.ts with
 * `node --import tsx bench/host.ts`; answers HostRequest messages until `close` or disconnect.
 */
import os from 'node:os';
import path from 'node:path';
import {
  type IntervalHistogram,
  monitorEventLoopDelay,
  PerformanceObserver,
  constants as perfConstants,
} from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { SESSION_COOKIE, type SealedSession } from '../src/http/session-cookie.js';
import { createDeps, type OwnedDeps } from '../src/server.js';
import { type FloorServer, startFloorServer } from './floor.js';
import type { DbTarget, ElStats, HostApi, HostRequest, HostResponse, Servers } from './host-protocol.js';
import { type MemWindow, startMemWindow } from './memory.js';
import { type PgliteWindow, startPgliteWindow } from './pglite-memory.js';
import { type BenchEvent, growTo, resetBench, setupBenchEvent } from './seed-large.js';
import { FLOOR_TABLE, floorFillStatements } from './sql.js';

interface Running {
  target: DbTarget;
  deps: OwnedDeps;
  app: FastifyInstance;
  floor: FloorServer;
  /** The floor's own pool on PostgreSQL; on PGlite the floor shares the embedded server's pool. */
  floorPool: pg.Pool | null;
}

let running: Running | null = null;
let event: BenchEvent | null = null;
let histogram: IntervalHistogram | null = null;
let memWindow: MemWindow | null = null;
let pgliteWindow: PgliteWindow | null = null;
/** RSS sampling alongside the event-loop monitor (every 20 ms). */
let rss: { start: number; max: number; timer: NodeJS.Timeout } | null = null;
/** GC pauses observed alongside the event-loop monitor: each pause's duration and the major ones. */
let gc: { observer: PerformanceObserver; durations: number[]; major: number } | null = null;

function startGcObserver(): void {
  gc?.observer.disconnect();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      sample.durations.push(entry.duration);
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) sample.major++;
    }
  });
  const sample = { observer, durations: [] as number[], major: 0 };
  observer.observe({ entryTypes: ['gc'] });
  gc = sample;
}

function stopGcObserver(): ElStats['gc'] {
  if (!gc) return undefined;
  gc.observer.disconnect();
  const d = gc.durations;
  const round = (x: number) => Math.round(x * 100) / 100;
  const out = {
    count: d.length,
    totalMs: round(d.reduce((a, b) => a + b, 0)),
    maxMs: round(d.reduce((a, b) => Math.max(a, b), 0)),
    majorCount: gc.major,
  };
  gc = null;
  return out;
}

function current(): Running {
  if (!running) throw new Error('host: database not open');
  return running;
}

async function startAll(target: DbTarget): Promise<Running> {
  const env =
    target.kind === 'pg'
      ? { DATABASE_URL: target.url, MUSTER_OUTBOX_DIR: path.join(os.tmpdir(), 'muster-bench-outbox') }
      : { MUSTER_DATA_DIR: target.dataDir };
  // Silent logs: the figures are the request path, not pino's output.
  const config = loadConfig({
    ...env,
    // check-in bench: the pool size may be varied (MUSTER_DB_POOL_SIZE=… npm run bench).
    MUSTER_DB_POOL_SIZE: process.env.MUSTER_DB_POOL_SIZE,
    LOG_LEVEL: 'silent',
    PORT: '0',
    MUSTER_WORKER: 'false',
  });
  const deps = await createDeps(config);
  try {
    const app = await buildApp(deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const floorPool =
      target.kind === 'pg'
        ? new pg.Pool({ connectionString: target.url, max: config.dbPoolSize, options: '-c TimeZone=UTC' })
        : null;
    const floor = await startFloorServer(floorPool ?? deps.database.pool);
    return { target, deps, app, floor, floorPool };
  } catch (error) {
    await deps.close();
    throw error;
  }
}

async function stopAll(r: Running): Promise<void> {
  await r.app.close();
  await r.floor.close();
  await r.floorPool?.end();
  await r.deps.close();
}

function servers(r: Running): Servers {
  const address = r.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { appUrl: `http://127.0.0.1:${port}`, floorUrl: r.floor.url };
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

function elStats(h: IntervalHistogram): ElStats {
  return {
    samples: h.count,
    meanMs: ms(h.mean),
    p50Ms: ms(h.percentile(50)),
    p99Ms: ms(h.percentile(99)),
    maxMs: ms(h.max),
  };
}

/** 5 ms sampling: fine enough to see a blocked loop, cheap enough not to disturb the server. */
const EL_RESOLUTION_MS = 5;

const api: HostApi = {
  async open({ target, reset }) {
    if (running) throw new Error('host: already open');
    running = await startAll(target);
    if (reset) await resetBench(running.deps.db);
    event = await setupBenchEvent(running.deps.db);
    const v = await running.deps.database.pool.query<{ v: string }>(
      "SELECT current_setting('server_version') AS v",
    );
    return {
      ...servers(running),
      event,
      serverVersion: v.rows[0]!.v,
      poolSize: running.deps.config.dbPoolSize,
    };
  },

  async grow({ target, batchSize }) {
    const r = current();
    if (!event) throw new Error('host: no bench event');
    const out = await growTo(r.deps.db, event, target, { batchSize });
    return { ...out, n: target };
  },

  async query({ text, params }) {
    const res = await current().deps.database.pool.query(text, params);
    return { rows: res.rows as Record<string, unknown>[] };
  },

  async script({ statements }) {
    const client = await current().deps.database.pool.connect();
    const out: { rows: Record<string, unknown>[] }[] = [];
    try {
      await client.query('BEGIN');
      for (const st of statements) {
        const res = await client.query(st.text, st.params);
        out.push({ rows: res.rows as Record<string, unknown>[] });
      }
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
    return out;
  },

  async refreshFloor() {
    const r = current();
    if (!event) throw new Error('host: no bench event');
    const t = performance.now();
    const pool = r.floorPool ?? r.deps.database.pool;
    for (const st of floorFillStatements(event.eventId)) await pool.query(st.text, st.params);
    const n = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${FLOOR_TABLE} WHERE event_id = $1`,
      [event.eventId],
    );
    return { rows: n.rows[0]!.n, seconds: (performance.now() - t) / 1000 };
  },

  async sessionCookie() {
    if (!event) throw new Error('host: no bench event');
    const sealed = current().deps.sealer.seal({ v: 1, t: event.adminToken } satisfies SealedSession);
    return { cookie: `${SESSION_COOKIE}=${sealed}` };
  },

  async elStart() {
    histogram?.disable();
    if (rss) clearInterval(rss.timer);
    const start = process.memoryUsage.rss();
    const sample = {
      start,
      max: start,
      timer: setInterval(() => {
        sample.max = Math.max(sample.max, process.memoryUsage.rss());
      }, 20),
    };
    rss = sample;
    histogram = monitorEventLoopDelay({ resolution: EL_RESOLUTION_MS });
    histogram.enable();
    startGcObserver();
  },

  async elStop() {
    if (!histogram) throw new Error('host: event-loop monitor not started');
    histogram.disable();
    const stats = elStats(histogram);
    histogram = null;
    stats.gc = stopGcObserver();
    if (rss) {
      clearInterval(rss.timer);
      stats.rssStartMB = Math.round(rss.start / 2 ** 20);
      stats.rssGrowthMB = Math.round((Math.max(rss.max, process.memoryUsage.rss()) - rss.start) / 2 ** 20);
      rss = null;
    }
    return stats;
  },

  async memStart() {
    memWindow?.stop();
    await pgliteWindow?.stop();
    pgliteWindow = startPgliteWindow(running?.deps.database.memory);
    memWindow = startMemWindow();
  },

  async memStop() {
    if (!memWindow) throw new Error('host: memory window not started');
    const stats = memWindow.stop();
    memWindow = null;
    const pglite = (await pgliteWindow?.stop()) ?? null;
    pgliteWindow = null;
    return { ...stats, pglite };
  },

  async inProcessPglite({ text, params, repeats }) {
    const r = current();
    if (r.target.kind !== 'pglite') throw new Error('inProcessPglite needs the embedded database');
    const target = r.target;
    await stopAll(r);
    running = null;
    // The embedded worker keeps its cluster in <data dir>/pg (src/db/embedded/embedded.ts).
    const db = new PGlite(path.join(path.resolve(target.dataDir), 'pg'), { extensions: { pg_trgm } });
    const queryMs: number[] = [];
    let el: ElStats;
    try {
      await db.waitReady;
      await db.query(text, params); // warm-up, not sampled
      const h = monitorEventLoopDelay({ resolution: EL_RESOLUTION_MS });
      h.enable();
      // The monitor's first tick only sets its baseline; a loop blocked before it would go unseen.
      await new Promise((resolve) => setTimeout(resolve, 3 * EL_RESOLUTION_MS));
      for (let i = 0; i < repeats; i++) {
        const t = performance.now();
        await db.query(text, params);
        queryMs.push(Math.round(performance.now() - t));
        // Let the monitor's timer run: it records a blocked loop only when it finally fires.
        await new Promise((resolve) => setTimeout(resolve, 3 * EL_RESOLUTION_MS));
      }
      h.disable();
      el = elStats(h);
    } finally {
      await db.close();
    }
    running = await startAll(target);
    return { ...servers(running), el, queryMs };
  },

  async close({ reset }) {
    histogram?.disable();
    if (reset && running) await resetBench(running.deps.db);
    if (running) await stopAll(running);
    running = null;
  },
};

function reply(message: HostResponse): void {
  process.send?.(message);
}

process.on('message', (raw: unknown) => {
  const req = raw as HostRequest;
  const fn = api[req.method] as (arg: unknown) => Promise<unknown>;
  fn(req.arg).then(
    (result) => reply({ id: req.id, ok: true, result: result ?? null }),
    (error: unknown) =>
      reply({
        id: req.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});

process.on('disconnect', () => {
  void api.close({ reset: false }).finally(() => process.exit(0));
});
