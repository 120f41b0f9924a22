/**
 * The process's Prometheus registry (prom-client), one per app (tests build several apps in one
 * process). What it exports is listed in docs/operations.md "Metrics":
 * - per process: `http_request_duration_seconds{method,route,status_code}` (route = the route's
 *   template, never the raw URL), `muster_db_pool_connections{state}`, `muster_scan_stream_clients`,
 *   prom-client's default Node metrics (event-loop delay `nodejs_eventloop_lag_*`, heap, GC);
 * - database-wide (the same on every instance; aggregate with `max`): `muster_job_queue_depth{queue}`,
 *   `muster_job_queue_oldest_seconds{queue}`, `muster_emails{status}`, `muster_chat_deliveries{status}`,
 *   `muster_push_deliveries{state}`, `muster_scans{verdict}`.
 */
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Deps } from '../../deps.js';
import { scanStreamHub } from '../checkin/stream.serve.js';
import { type CountBy, type DatabaseFigures, readDatabaseFigures } from './metrics.repo.js';
import { readScanFigures } from './scans.repo.js';

export interface Metrics {
  readonly registry: Registry;
  readonly http: Histogram<'method' | 'route' | 'status_code'>;
}

const byDeps = new WeakMap<Deps, Metrics>();

/** The app's registry (created on first use). */
export function metricsOf(deps: Deps): Metrics {
  let metrics = byDeps.get(deps);
  if (!metrics) {
    metrics = createMetrics(deps);
    byDeps.set(deps, metrics);
  }
  return metrics;
}

function createMetrics(deps: Deps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'muster_db_pool_connections',
    help: 'Database pool connections of this process: in_use, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = deps.database.pool;
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'muster_scan_stream_clients',
    help: 'Open check-in live streams (SSE) on this process.',
    registers: [registry],
    collect() {
      this.set(scanStreamHub(deps)?.totalClients() ?? 0);
    },
  });
  // The database-wide figures: one query per scrape, shared by the gauges that collect from it
  // (prom-client starts every collect() of a scrape at once; the next scrape reads afresh).
  let pending: Promise<[DatabaseFigures, CountBy[]]> | undefined;
  const figures = () => {
    if (!pending) {
      const query = Promise.all([readDatabaseFigures(deps.db), readScanFigures(deps.db)]);
      pending = query;
      const clear = () => {
        if (pending === query) pending = undefined;
      };
      query.then(clear, clear);
    }
    return pending;
  };
  fromDatabase(
    registry,
    'muster_job_queue_depth',
    'Jobs waiting to run, per queue (database-wide).',
    'queue',
    async () => (await figures())[0].queues.map((q) => ({ label: q.queue, count: q.depth })),
  );
  fromDatabase(
    registry,
    'muster_job_queue_oldest_seconds',
    'Seconds the oldest waiting job of each queue has waited.',
    'queue',
    async () => (await figures())[0].queues.map((q) => ({ label: q.queue, count: q.oldest_seconds })),
  );
  fromDatabase(
    registry,
    'muster_emails',
    'Emails in the email log, by status (database-wide).',
    'status',
    async () => (await figures())[0].emails,
  );
  fromDatabase(
    registry,
    'muster_chat_deliveries',
    'Chat blast deliveries, by status (database-wide).',
    'status',
    async () => (await figures())[0].chat,
  );
  fromDatabase(
    registry,
    'muster_push_deliveries',
    'Push delivery jobs, by job state (database-wide).',
    'state',
    async () => (await figures())[0].push,
  );
  fromDatabase(
    registry,
    'muster_scans',
    'Stored scans, by door verdict (database-wide).',
    'verdict',
    async () => (await figures())[1],
  );
  return { registry, http };
}

/** A gauge whose samples are read at scrape time: one per `{label, count}` row `read` returns. */
function fromDatabase(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Promise<CountBy[]>,
): void {
  new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const row of rows) this.set({ [label]: row.label }, row.count);
    },
  });
}
