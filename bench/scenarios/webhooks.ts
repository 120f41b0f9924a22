/**
 * Outbound webhooks (issue 29 "Done when"; docs/webhooks.md "Outbound"), PostgreSQL only, on its own
 * scratch database (chat-blast.ts `scratch`): the real app listening on a port with the webhook
 * dispatcher running in the same process (as `muster serve` runs its worker), 6,000 `complete`
 * registrations, and a local receiver in its own process (webhook-receiver-child.ts).
 * - lag: scans posted at 200/s (one endpoint subscribed to `scan.created`); per scan, the time
 *   from its 200 answer (its transaction committed) to its webhook's arrival: p50, p99, max (ms).
 * - throughput: `POST /events/{e}/scans` at 50 connections (autocannon), each request a first
 *   check-in in a fresh context, rounds alternating no endpoint / 3 endpoints with the dispatcher
 *   in this process / 3 endpoints delivered by a separate `muster worker` at nice 19 while this
 *   process runs none (webhooks-worker.ts; production: MUSTER_WORKER=false on `serve`); after a
 *   round with endpoints, the time for the backlog to drain, the receiver's CPU time, and for the
 *   separate worker each delivery's lag. Goal: scans/s with 3 endpoints ≥ 0.9 × without (medians).
 * The load generator and the app share this process, and the machine's 2 cores with the receiver
 * and PostgreSQL: absolute figures are pessimistic; the ratio is measured in the same setup.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startWebhookDispatcher } from '../../src/modules/outbound-webhooks/dispatcher.js';
import { createDeps } from '../../src/server.js';
import { seedChatParticipants } from '../../test/support/chat-seed.js';
import { buildWorld } from '../../test/support/world.js';
import { percentile } from '../load.js';
import { scratch } from './chat-blast.js';
import { type GoalLine, largest, type Scenario } from './types.js';
import { startFloorSender } from './webhooks-floor.js';
import { measureLag, RATE } from './webhooks-lag.js';
import { checkInRound, deliveryLag, startSeparateWorker } from './webhooks-worker.js';

const PARTICIPANTS = 6000;
const GOAL_RATIO = 0.9;

const WORKER_NICE = 19; // the separate worker's MUSTER_WORKER_NICE
/**
 * BENCH_WEBHOOKS_OUTBOX_ONLY=1: the separate worker starts only after each round's scans, so those
 * rounds measure what the outbox rows cost the door without any delivery running beside it.
 */
const OUTBOX_ONLY = process.env.BENCH_WEBHOOKS_OUTBOX_ONLY === '1';
/**
 * BENCH_WEBHOOKS_FLOOR=1: a fourth kind of round, the floor: no endpoint, while a bare sender
 * process (no database) sends 3 signed POSTs per scan to the receiver (webhooks-floor.ts).
 */
const FLOOR = process.env.BENCH_WEBHOOKS_FLOOR === '1';

type Mode = 'none' | 'in-process' | 'separate' | 'floor';
const MODE_LABEL: Record<Mode, string> = {
  none: 'no endpoint',
  floor: `FLOOR: no endpoint, a bare sender (no database, nice ${WORKER_NICE}) POSTing 3 deliveries per scan`,
  'in-process': '3 endpoints, worker in this process',
  separate: OUTBOX_ONLY
    ? `3 endpoints, deliveries only after the round (outbox rows alone)`
    : `3 endpoints, separate worker at nice ${WORKER_NICE}`,
};

export interface WebhooksResult {
  lag: { scans: number; seconds: number; p50Ms: number; p99Ms: number; maxMs: number; p50ByFifth: number[] };
  rounds: {
    mode: Mode;
    scansPerSec: number;
    requests: number;
    non2xx: number;
    drainSeconds: number | null;
    /** CPU time the local receiver process used during the round and its drain. */
    receiverCpuMs: number;
    /** Separate-worker rounds: each delivery's created_at → arrival. */
    lag: { deliveries: number; expected: number; p50Ms: number; p99Ms: number } | null;
  }[];
  none: number;
  three: number;
  ratio: number;
  /** Scans/s with 3 endpoints delivered by a separate niced `muster worker`, and its ratio to none. */
  separate: number;
  separateRatio: number;
  /** Median of the separate rounds' p50, worst of their p99 (ms). */
  separateLag: { p50Ms: number; p99Ms: number };
  receiverCpuMsPerRound: number;
  /** BENCH_WEBHOOKS_FLOOR=1: scans/s while the bare sender sends, and its ratio to none. */
  floor?: { scansPerSec: number; ratio: number; senderCpuMsPerRound: number };
}

/** The receiver process: its URL and, on request, every arrival `[scan_id, epoch ms]`. */
async function startChildReceiver() {
  const child = fork(fileURLToPath(new URL('../webhook-receiver-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m) => resolve((m as { port: number }).port)),
  );
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals: () =>
      new Promise<[number, number][]>((resolve) => {
        child.once('message', (m) => resolve((m as { arrivals: [number, number][] }).arrivals));
        child.send('report');
      }),
    cpuMs: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { cpuMs: number }).cpuMs));
        child.send('cpu');
      }),
    close: async () => {
      child.disconnect();
    },
  };
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

export const webhooks: Scenario = {
  name: 'webhooks',
  sizes: largest,
  async run(ctx) {
    if (ctx.db !== 'pg') {
      ctx.log('  webhooks: PostgreSQL only (the scratch app and the dispatcher share one database server)');
      return;
    }
    const rx = await startChildReceiver();
    const db = await scratch('pg');
    const secretKey = Buffer.alloc(32, 5).toString('base64');
    const config = loadConfig({
      ...db.env,
      LOG_LEVEL: 'silent',
      MUSTER_SECRET_KEY: secretKey,
      MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    const deps = await createDeps(config);
    const app = await buildApp(deps);
    let dispatcher = startWebhookDispatcher(deps);
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const world = await buildWorld(deps);
      const eventId = world.events.A.id;
      const pool = deps.database.pool;
      await seedChatParticipants(pool, eventId, PARTICIPANTS, 'UHOOK');
      const regIds = (
        await pool.query<{ id: number }>(
          "SELECT r.id::int AS id FROM registrations r JOIN people p ON p.id = r.person_id WHERE r.event_id = $1 AND p.chat_user_id LIKE 'UHOOK%' ORDER BY r.id",
          [eventId],
        )
      ).rows.map((r) => r.id);
      const auth = {
        authorization: `Bearer ${world.users.eventAdmin.mobile}`,
        'content-type': 'application/json',
      };
      const newContext = async (label: string) =>
        Number(
          (
            await pool.query(
              `INSERT INTO scan_contexts (event_id, name, checks_in, position)
               VALUES ($1, $2, true, 100 + (SELECT count(*) FROM scan_contexts WHERE event_id = $1)::int) RETURNING id`,
              [eventId, `Webhook bench ${label}`],
            )
          ).rows[0]!.id,
        );
      const endpoints: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/events/${eventId}/webhooks`,
          headers: auth,
          payload: { url: `${rx.url}/${i}`, event_types: ['scan.created'] },
        });
        if (res.statusCode !== 201) throw new Error(`POST webhooks → ${res.statusCode} ${res.body}`);
        endpoints.push(res.json().webhook.id);
      }
      const enable = async (n: number) =>
        pool.query('UPDATE webhook_endpoints SET enabled = (id = ANY($1::int[]))', [endpoints.slice(0, n)]);
      const backlog = async () =>
        (
          await pool.query<{ n: number }>(
            `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int
                  + (SELECT count(*) FROM webhook_messages WHERE awaiting_fanout)::int AS n`,
          )
        ).rows[0]!.n;
      const drain = async () => {
        const t0 = performance.now();
        while ((await backlog()) > 0) await new Promise((r) => setTimeout(r, 50));
        return (performance.now() - t0) / 1000;
      };

      // Lag at 200 scans/s, one endpoint.
      await enable(1);
      const lagSeconds = Number(process.env.BENCH_WEBHOOKS_LAG_SECONDS ?? (ctx.quick ? 10 : 20));
      const context = await newContext('lag');
      const lag = await measureLag({
        url: `${base}/api/v1/events/${eventId}/scans`,
        auth,
        regIds,
        context,
        seconds: lagSeconds,
        drain,
        arrivals: rx.arrivals,
      });
      ctx.log(
        `  webhooks lag at ${RATE} scans/s (${lag.scans} scans in ${lag.seconds} s, 1 endpoint): p50 ${lag.p50Ms} ms, p99 ${lag.p99Ms} ms, max ${lag.maxMs} ms; p50 by fifth of the scans ${lag.p50ByFifth.join(' / ')} ms`,
      );

      // Throughput, rounds alternating: no endpoint; 3 endpoints with the dispatcher in this
      // process (as `muster serve` runs its worker); 3 endpoints delivered by a separate
      // `muster worker` at nice WORKER_NICE while this process runs no dispatcher (as `muster serve`
      // with MUSTER_WORKER=false).
      const amount = ctx.quick ? 1500 : 3000;
      const rounds: WebhooksResult['rounds'] = [];
      const cycle: Mode[] = FLOOR
        ? ['none', 'in-process', 'separate', 'floor']
        : ['none', 'in-process', 'separate'];
      const sender = FLOOR ? await startFloorSender(WORKER_NICE) : undefined;
      const senderCpu: number[] = [];
      const plan = (
        ctx.quick ? [...cycle, ...cycle, ...cycle] : [...cycle, ...cycle, ...cycle, ...cycle]
      ).slice(0, Number(process.env.BENCH_WEBHOOKS_ROUNDS ?? 12));
      const workerEnv = { ...db.env, MUSTER_SECRET_KEY: secretKey, MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true' };
      for (const [r, mode] of plan.entries()) {
        await enable(mode === 'none' ? 0 : 3);
        let worker: Awaited<ReturnType<typeof startSeparateWorker>> | undefined;
        if (mode === 'separate') {
          await dispatcher.stop();
          if (!OUTBOX_ONLY) worker = await startSeparateWorker(workerEnv, WORKER_NICE);
        }
        const contextId = await newContext(`r${r}`);
        const cpu0 = await rx.cpuMs();
        const floorSent =
          mode === 'floor'
            ? sender?.send(
                [0, 1, 2].map((i) => `${rx.url}/${i}`),
                3 * amount,
              )
            : undefined;
        const { seconds, non2xx } = await checkInRound(
          base,
          eventId,
          auth,
          regIds,
          contextId,
          amount,
          `r${r}`,
        );
        if (mode === 'separate' && OUTBOX_ONLY) worker = await startSeparateWorker(workerEnv, WORKER_NICE);
        const stored = Number(
          (await pool.query('SELECT count(*)::int AS n FROM scans WHERE scan_context_id = $1', [contextId]))
            .rows[0]!.n,
        );
        const roundEnd = performance.now();
        const floorDone = await floorSent;
        if (floorDone && floorDone.ok !== 3 * amount)
          throw new Error(`floor sender: ${floorDone.ok} of ${3 * amount} POSTs answered 2xx`);
        if (floorDone) senderCpu.push(floorDone.cpuMs);
        const drainSeconds =
          mode === 'none'
            ? null
            : floorDone
              ? r1(Math.max(0, floorDone.endedAt - roundEnd) / 1000)
              : r1(await drain());
        const receiverCpuMs = Math.round((await rx.cpuMs()) - cpu0);
        const lag =
          mode === 'separate' ? await deliveryLag(pool, contextId, await rx.arrivals(), 3 * stored) : null;
        if (worker) {
          await worker.stop();
          dispatcher = startWebhookDispatcher(deps);
        }
        if (lag && lag.deliveries !== lag.expected)
          throw new Error(`separate worker: ${lag.deliveries} deliveries arrived, ${lag.expected} expected`);
        const row = {
          mode,
          scansPerSec: r1(stored / seconds),
          requests: stored,
          non2xx,
          drainSeconds,
          receiverCpuMs,
          lag,
        };
        rounds.push(row);
        ctx.log(
          `  webhooks round ${r + 1}: ${MODE_LABEL[mode]}, ${row.scansPerSec} scans/s (${row.requests} requests, ${row.non2xx} non-2xx)` +
            (drainSeconds === null ? '' : `; backlog drained ${drainSeconds} s after the round`) +
            `; receiver CPU ${receiverCpuMs} ms over ${r1(seconds + (drainSeconds ?? 0))} s` +
            (lag
              ? `; lag created_at → arrival p50 ${lag.p50Ms} ms, p99 ${lag.p99Ms} ms, ${lag.deliveries}/${lag.expected} arrived`
              : ''),
        );
      }
      const rate = (mode: Mode) => median(rounds.filter((x) => x.mode === mode).map((x) => x.scansPerSec));
      const none = rate('none');
      const three = rate('in-process');
      const separate = rate('separate');
      const sepRounds = rounds.filter((x) => x.mode === 'separate');
      sender?.close();
      const withEndpoints = rounds.filter((x) => x.mode === 'in-process' || x.mode === 'separate');
      const result: WebhooksResult = {
        lag,
        rounds,
        none,
        three,
        ratio: Math.round((three / none) * 100) / 100,
        separate,
        separateRatio: Math.round((separate / none) * 100) / 100,
        separateLag: {
          p50Ms: median(sepRounds.map((x) => x.lag!.p50Ms)),
          p99Ms: Math.max(...sepRounds.map((x) => x.lag!.p99Ms)),
        },
        receiverCpuMsPerRound: median(withEndpoints.map((x) => x.receiverCpuMs)),
        ...(FLOOR
          ? {
              floor: {
                scansPerSec: rate('floor'),
                ratio: Math.round((rate('floor') / none) * 100) / 100,
                senderCpuMsPerRound: median(senderCpu),
              },
            }
          : {}),
      };
      ctx.log(
        `  webhooks: check-in ${none} scans/s without endpoints; 3 endpoints, worker in this process ${three} (${result.ratio}×); ` +
          `${MODE_LABEL.separate} ${separate} (${result.separateRatio}×), its lag p50 ${result.separateLag.p50Ms} ms, ` +
          `p99 ${result.separateLag.p99Ms} ms (worst round); goal ≥ ${GOAL_RATIO}×: in-process ${result.ratio >= GOAL_RATIO ? 'met' : 'not met'}, ` +
          `separate ${result.separateRatio >= GOAL_RATIO ? 'met' : 'not met'}; the local receiver took ${result.receiverCpuMsPerRound} ms CPU per round with endpoints (median; elsewhere in a deployment)`,
      );
      if (result.floor)
        ctx.log(
          `  webhooks ${MODE_LABEL.floor}: ${result.floor.scansPerSec} scans/s (${result.floor.ratio}× of none); the sender took ${result.floor.senderCpuMsPerRound} ms CPU per round (median)`,
        );
      ctx.attach('webhooks', result);
    } finally {
      await dispatcher.stop();
      await app.close();
      await deps.close();
      await rx.close();
      await db.drop();
    }
  },

  summary(details) {
    const r = details.webhooks?.pg as WebhooksResult | undefined;
    if (!r) return [];
    return [
      `webhooks (PostgreSQL): lag commit → arrival at ${RATE} scans/s p50 ${r.lag.p50Ms} ms, p99 ${r.lag.p99Ms} ms; ` +
        `check-in ${r.none} scans/s without endpoints; 3 endpoints, worker in the same process ${r.three} = ${r.ratio}×; ` +
        `${MODE_LABEL.separate} ${r.separate} = ${r.separateRatio}× (lag p50 ${r.separateLag.p50Ms} ms, p99 ${r.separateLag.p99Ms} ms) (goal ≥ ${GOAL_RATIO}×)`,
    ];
  },

  goals(_rows, details) {
    const r = details.webhooks?.pg as WebhooksResult | undefined;
    if (!r) return [];
    return [
      {
        what: 'check-in with 3 webhook endpoints vs none (separate worker, nice 19)',
        db: 'pg',
        measured: `${r.separate} vs ${r.none} scans/s (${r.separateRatio}×; worker in-process ${r.ratio}×); separate lag p50 ${r.separateLag.p50Ms} ms, p99 ${r.separateLag.p99Ms} ms`,
        goal: `≥ ${GOAL_RATIO}× of none`,
        met: r.separateRatio >= GOAL_RATIO,
      } satisfies GoalLine,
    ];
  },
};
