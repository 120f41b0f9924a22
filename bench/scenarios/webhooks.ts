/**
 * Outbound webhooks (issue 29 "Done when"; docs/webhooks.md "Outbound"), PostgreSQL only, on its own
 * scratch database (chat-blast.ts `scratch`): the real app listening on a port with the webhook
 * dispatcher running in the same process (as `muster serve` runs its worker), 6,000 `complete`
 * registrations, and a local receiver in its own process (webhook-receiver-child.ts).
 * - lag: scans posted at 200/s (one endpoint subscribed to `scan.created`); per scan, the time
 *   from its 200 answer (its transaction committed) to its webhook's arrival: p50, p99, max (ms).
 * - throughput: `POST /events/{e}/scans` at 50 connections (autocannon), each request a first
 *   check-in in a fresh context, rounds alternating no endpoint / 3 endpoints subscribed (the
 *   dispatcher delivering meanwhile); after a round with endpoints, the time for the backlog to
 *   drain. Goal: scans/s with 3 endpoints ≥ 0.9 × without (medians of the rounds).
 * The load generator and the app share this process, and the machine's 2 cores with the receiver
 * and PostgreSQL: absolute figures are pessimistic; the ratio is measured in the same setup.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startWebhookDispatcher } from '../../src/modules/outbound-webhooks/dispatcher.js';
import { createDeps } from '../../src/server.js';
import { seedChatParticipants } from '../../test/support/chat-seed.js';
import { buildWorld } from '../../test/support/world.js';
import { percentile } from '../load.js';
import { scratch } from './chat-blast.js';
import { type GoalLine, largest, type Scenario } from './types.js';

const PARTICIPANTS = 6000;
const RATE = 200; // scans per second in the lag phase
const CONNECTIONS = 50;
const LAG_CONNECTIONS = 50;
const GOAL_RATIO = 0.9;

export interface WebhooksResult {
  lag: { scans: number; seconds: number; p50Ms: number; p99Ms: number; maxMs: number; p50ByFifth: number[] };
  rounds: {
    endpoints: number;
    delivering: boolean;
    scansPerSec: number;
    requests: number;
    non2xx: number;
    drainSeconds: number | null;
  }[];
  none: number;
  three: number;
  ratio: number;
  /** Scans/s with 3 endpoints and the dispatcher paused (the outbox writes only), and its ratio to none. */
  outbox: number;
  outboxRatio: number;
}

interface Round {
  n: number;
  delivering: boolean;
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
    const config = loadConfig({
      ...db.env,
      LOG_LEVEL: 'silent',
      MUSTER_SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
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
            "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'",
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
      const answered = new Map<number, number>(); // scan id → performance.now() of its 200
      const posts: Promise<void>[] = [];
      const t0 = performance.now();
      // At most LAG_CONNECTIONS posts in flight: an app that falls behind the rate must not make
      // the client open connections without bound (the listen queue overflows and resets them).
      let open = 0;
      let freed: (() => void) | undefined;
      for (let k = 0; k < RATE * lagSeconds; k++) {
        const due = t0 + (k * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        while (open >= LAG_CONNECTIONS) await new Promise<void>((r) => (freed = r));
        open++;
        posts.push(
          fetch(`${base}/api/v1/events/${eventId}/scans`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({
              participant_id: regIds[k % regIds.length],
              scan_context_id: context,
              client_scan_id: `lag-${k}`,
            }),
          })
            .then(async (res) => {
              const at = performance.timeOrigin + performance.now();
              if (res.status !== 200) throw new Error(`POST scans → ${res.status} ${await res.text()}`);
              answered.set(((await res.json()) as { scan: { id: number } }).scan.id, at);
            })
            .finally(() => {
              open--;
              freed?.();
            }),
        );
      }
      await Promise.all(posts);
      const postSeconds = (performance.now() - t0) / 1000;
      await drain();
      const bySent: [number, number][] = []; // [answered at, lag]
      for (const [scanId, at] of await rx.arrivals()) {
        const sent = answered.get(scanId);
        if (sent !== undefined) bySent.push([sent, at - sent]);
      }
      bySent.sort((a, b) => a[0] - b[0]);
      const fifth = Math.ceil(bySent.length / 5);
      const p50ByFifth = [0, 1, 2, 3, 4].map((f) =>
        r1(median(bySent.slice(f * fifth, (f + 1) * fifth).map((x) => x[1]))),
      );
      const lags = bySent.map((x) => x[1]).sort((a, b) => a - b);
      const lag = {
        scans: answered.size,
        seconds: r1(postSeconds),
        p50Ms: r1(percentile(lags, 50)),
        p99Ms: r1(percentile(lags, 99)),
        maxMs: r1(lags.at(-1) ?? Number.NaN),
        p50ByFifth,
      };
      if (lags.length !== answered.size)
        throw new Error(`lag: ${lags.length} webhooks for ${answered.size} scans`);
      ctx.log(
        `  webhooks lag at ${RATE} scans/s (${lag.scans} scans in ${lag.seconds} s, 1 endpoint): p50 ${lag.p50Ms} ms, p99 ${lag.p99Ms} ms, max ${lag.maxMs} ms; p50 by fifth of the scans ${lag.p50ByFifth.join(' / ')} ms`,
      );

      // Throughput: no endpoint vs 3 endpoints delivering meanwhile vs 3 endpoints with the
      // dispatcher paused during the round (the check-in path's own cost: the outbox rows; in
      // production a separate `muster worker` can carry the deliveries), alternating.
      const amount = ctx.quick ? 1500 : 3000;
      const rounds: WebhooksResult['rounds'] = [];
      const cycle: Round[] = [
        { n: 0, delivering: true },
        { n: 3, delivering: true },
        { n: 3, delivering: false },
      ];
      const plan = (ctx.quick ? [...cycle, ...cycle] : [...cycle, ...cycle, ...cycle]).slice(
        0,
        Number(process.env.BENCH_WEBHOOKS_ROUNDS ?? 9),
      );
      for (const [r, { n, delivering }] of plan.entries()) {
        await enable(n);
        if (!delivering) await dispatcher.stop();
        const contextId = await newContext(`r${r}`);
        let i = 0;
        const result = await autocannon({
          url: base,
          connections: CONNECTIONS,
          amount,
          timeout: 30,
          requests: [
            {
              method: 'POST',
              path: `/api/v1/events/${eventId}/scans`,
              headers: auth,
              setupRequest: (req) => {
                const k = i++;
                return {
                  ...req,
                  body: JSON.stringify({
                    participant_id: regIds[k % regIds.length],
                    scan_context_id: contextId,
                    client_scan_id: `r${r}-${k}`,
                  }),
                };
              },
            },
          ],
        });
        const stored = Number(
          (await pool.query('SELECT count(*)::int AS n FROM scans WHERE scan_context_id = $1', [contextId]))
            .rows[0]!.n,
        );
        if (!delivering) dispatcher = startWebhookDispatcher(deps);
        const drainSeconds = n > 0 ? r1(await drain()) : null;
        const row = {
          endpoints: n,
          delivering,
          scansPerSec: r1(stored / result.duration),
          requests: stored,
          non2xx: result.non2xx,
          drainSeconds,
        };
        rounds.push(row);
        ctx.log(
          `  webhooks round ${r + 1}: ${n} endpoints${delivering ? '' : ' (dispatcher paused)'}, ${row.scansPerSec} scans/s (${row.requests} requests, ${row.non2xx} non-2xx)` +
            (n > 0 ? `; backlog drained ${drainSeconds} s after the round` : ''),
        );
      }
      const none = median(rounds.filter((x) => x.endpoints === 0).map((x) => x.scansPerSec));
      const rate = (delivering: boolean) =>
        median(
          rounds.filter((x) => x.endpoints === 3 && x.delivering === delivering).map((x) => x.scansPerSec),
        );
      const three = rate(true);
      const outbox = rate(false);
      const result: WebhooksResult = {
        lag,
        rounds,
        none,
        three,
        ratio: Math.round((three / none) * 100) / 100,
        outbox,
        outboxRatio: Math.round((outbox / none) * 100) / 100,
      };
      ctx.log(
        `  webhooks: check-in ${three} scans/s with 3 endpoints delivering in the same process vs ${none} without → ${result.ratio}×; ` +
          `${outbox} scans/s with the dispatcher paused → ${result.outboxRatio}×`,
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
        `check-in ${r.three} scans/s with 3 endpoints delivering in the same process vs ${r.none} without = ${r.ratio}×, ` +
        `${r.outbox} scans/s with the dispatcher paused = ${r.outboxRatio}× (goal ≥ ${GOAL_RATIO}×)`,
    ];
  },

  goals(_rows, details) {
    const r = details.webhooks?.pg as WebhooksResult | undefined;
    if (!r) return [];
    return [
      {
        what: 'check-in with 3 webhook endpoints vs none',
        db: 'pg',
        measured: `${r.three} vs ${r.none} scans/s (${r.ratio}×; dispatcher paused ${r.outboxRatio}×); lag p50 ${r.lag.p50Ms} ms, p99 ${r.lag.p99Ms} ms`,
        goal: `≥ ${GOAL_RATIO}× of none`,
        met: r.ratio >= GOAL_RATIO,
      } satisfies GoalLine,
    ];
  },
};
