/**
 * The webhooks scenario's separate-worker mode (scenarios/webhooks.ts): the deliveries in a
 * `muster worker` child process (the compiled CLI, as tests start it) with MUSTER_WORKER_NICE,
 * while the bench's app runs no dispatcher (as `muster serve` with MUSTER_WORKER=false); and the
 * lag of each delivery from its scan's `created_at` (server time) to its arrival at the receiver.
 */
import autocannon from 'autocannon';
import type pg from 'pg';
import { ensureCliBuilt } from '../../test/support/cli-build.js';
import { startMuster } from '../../test/support/processes.js';
import { percentile } from '../load.js';

/** Starts `muster worker --json` on `env` at nice `nice`; resolves once it reports running. */
export async function startSeparateWorker(env: NodeJS.ProcessEnv, nice: number) {
  ensureCliBuilt();
  const worker = startMuster(['worker', '--json'], { ...env, MUSTER_WORKER_NICE: String(nice) });
  await worker.started();
  return {
    pid: worker.child.pid!,
    stop: async () => {
      const { code } = await worker.stop('SIGTERM');
      if (code !== 0) throw new Error(`muster worker exited ${code}: ${worker.stderr()}`);
    },
  };
}

/**
 * Per delivery of the scans of `contextId`, arrival − scan `created_at` (ms): p50 and p99, and
 * whether every scan arrived once per endpoint (`expected` deliveries in all).
 */
export async function deliveryLag(
  pool: pg.Pool,
  contextId: number,
  arrivals: [number, number][],
  expected: number,
) {
  const created = new Map(
    (
      await pool.query<{ id: number; at: number }>(
        'SELECT id::int AS id, extract(epoch FROM created_at) * 1000 AS at FROM scans WHERE scan_context_id = $1',
        [contextId],
      )
    ).rows.map((r) => [r.id, Number(r.at)]),
  );
  const lags: number[] = [];
  for (const [scanId, at] of arrivals) {
    const t = created.get(scanId);
    if (t !== undefined) lags.push(at - t);
  }
  lags.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x);
  return {
    deliveries: lags.length,
    expected,
    p50Ms: r(percentile(lags, 50)),
    p99Ms: r(percentile(lags, 99)),
  };
}

/** One round of first check-ins at 50 connections (autocannon), each in `contextId`: scans stored, seconds. */
export async function checkInRound(
  base: string,
  eventId: number,
  headers: Record<string, string>,
  regIds: number[],
  contextId: number,
  amount: number,
  tag: string,
) {
  let i = 0;
  // Timed from the start to the last response: autocannon stops an `amount` run only at its
  // 1-second tick, so its duration is whole seconds (a 3,000-scan round read as 1,500 or 1,000
  // scans/s, nothing between, whatever the server did).
  const started = performance.now();
  let lastResponse = started;
  const run = autocannon({
    url: base,
    connections: 50,
    amount,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: `/api/v1/events/${eventId}/scans`,
        headers,
        setupRequest: (req) => {
          const k = i++;
          return {
            ...req,
            body: JSON.stringify({
              participant_id: regIds[k % regIds.length],
              scan_context_id: contextId,
              client_scan_id: `${tag}-${k}`,
            }),
          };
        },
      },
    ],
  });
  run.on('response', () => {
    lastResponse = performance.now();
  });
  const result = await run;
  const seconds = (lastResponse - started) / 1000;
  return { seconds, non2xx: result.non2xx, contextId };
}
