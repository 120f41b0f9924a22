/**
 * The delivery worker of outbound webhooks (docs/webhooks.md "Outbound", "Delivery"). The
 * `webhook_deliveries` table is the durable queue: the dispatcher claims due rows with
 * `FOR UPDATE SKIP LOCKED` (any number of worker processes share it), and a claim moves the row's
 * `next_attempt_at` forward by a lease (the attempt timeout + 10 s), so a delivery whose worker
 * died mid-attempt is due again when the lease ends, with the same `webhook-id`. Attempts:
 * attempt.ts; their outcomes are written in batches (record.ts), and a slot frees when the HTTP
 * exchange ends. It runs in every worker process (`muster serve` with the worker, `muster worker`) and
 * stops claiming when the job queue stops.
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import { closeAgents } from './agents.js';
import { attempt, type Claimed } from './attempt.js';
import { createGiveWay, type LoadSources, processLoad } from './give-way.js';
import { createRecorder } from './record.js';

export interface Dispatcher {
  /** Stops claiming; resolves when the attempts in flight have settled. */
  stop(): Promise<void>;
}

/** Seconds a claim lasts: the attempt's timeout plus room for the result's write. */
export const leaseSeconds = (timeoutMs: number) => Math.ceil(timeoutMs / 1000) + 10;

/** Claims up to `n` due deliveries of enabled endpoints, with what an attempt needs. */
export async function claimDue(deps: Deps, n: number): Promise<Claimed[]> {
  const lease = leaseSeconds(deps.config.outboundWebhooks.timeoutMs);
  const res = await deps.db.execute<Claimed>(sql`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
       WHERE d.status = 'pending' AND d.next_attempt_at <= now()
       ORDER BY d.next_attempt_at LIMIT ${n}::int FOR UPDATE OF d SKIP LOCKED)
    UPDATE webhook_deliveries d
       SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${lease}::int),
           last_attempt_at = now()
      FROM due, webhook_endpoints w, webhook_messages m
     WHERE d.id = due.id AND w.id = d.endpoint_id AND m.id = d.message_id
    RETURNING d.id::int AS delivery_id, d.endpoint_id, d.attempts, w.url, w.secret_sealed,
              CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_sealed END AS previous_sealed,
              m.msg_id, m.body`);
  return res.rows;
}

/**
 * Starts the dispatcher loop. `opts.load`: what decides when deliveries give way to the API
 * (give-way.ts; the process's own by default, tests pass their own).
 */
export function startWebhookDispatcher(deps: Deps, opts: { load?: LoadSources } = {}): Dispatcher {
  const cfg = deps.config.outboundWebhooks;
  const giveWay = createGiveWay(
    { maxDeferMs: cfg.maxDeferMs, busyRequests: cfg.giveWayAt, busySessions: deps.config.dbPoolSize },
    opts.load ?? processLoad(deps.db),
  );
  const inFlight = new Set<Promise<void>>();
  const recorder = createRecorder(deps);
  let stopped = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const halted = () => stopped || deps.jobs.stopping;
  const loop = async () => {
    while (!halted()) {
      const free = cfg.concurrency - inFlight.size;
      let claimed: Claimed[] = [];
      if (free > 0 && (await giveWay.shouldWait())) {
        await sleep(cfg.pollMs); // the door first: the deliveries stay due in the outbox
        continue;
      }
      if (free > 0) {
        try {
          claimed = await claimDue(deps, free);
        } catch (error) {
          if (halted()) break;
          deps.log.error({ err: error }, 'webhook dispatcher: claiming failed');
        }
      }
      for (const row of claimed) {
        const run = attempt(deps, row)
          .then((outcome) => recorder.add(outcome))
          .catch((error) =>
            deps.log.error({ err: error, delivery_id: row.delivery_id }, 'webhook attempt failed'),
          )
          .finally(() => {
            inFlight.delete(run);
            // Claim again once half the slots are free: one claim per few deliveries, not per one.
            if (inFlight.size <= cfg.concurrency / 2) wake?.();
          });
        inFlight.add(run);
      }
      // Busy: look again as soon as a slot frees; idle: after the poll interval.
      if (claimed.length === 0 || inFlight.size >= cfg.concurrency) await sleep(cfg.pollMs);
    }
    // Write what finished before the database closes; an outcome lost here is sent again later.
    await Promise.allSettled([...inFlight]);
    await recorder.drain();
    closeAgents();
  };
  const running = loop();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
