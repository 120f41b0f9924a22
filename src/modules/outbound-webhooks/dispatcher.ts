/**
 * The delivery worker of outbound webhooks (docs/webhooks.md "Outbound", "Delivery"). The
 * `webhook_deliveries` table is the durable queue, filled from the outbox by the dispatcher's
 * fan-out: each claim (claim.ts, one statement) fans out awaiting messages and claims due rows with
 * `FOR UPDATE SKIP LOCKED` (any number of worker processes share both), and a claim moves the row's
 * `next_attempt_at` forward by a lease (the attempt timeout + 10 s), so a delivery whose worker
 * died mid-attempt is due again when the lease ends, with the same `webhook-id`. Attempts:
 * attempt.ts; their outcomes are written in batches (record.ts), and a slot frees when the HTTP
 * exchange ends. It runs in every worker process (`muster serve` with the worker, `muster worker`) and
 * stops claiming when the job queue stops.
 */
import type { Deps } from '../../deps.js';
import { closeAgents } from './agents.js';
import { attempt, type Claimed } from './attempt.js';
import { claimDue } from './claim.js';
import { createGiveWay, type LoadSources, processLoad } from './give-way.js';
import { createRecorder } from './record.js';

export interface Dispatcher {
  /** Stops claiming; resolves when the attempts in flight have settled. */
  stop(): Promise<void>;
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
