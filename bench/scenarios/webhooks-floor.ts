/**
 * The webhooks scenario's floor mode (scenarios/webhooks.ts, BENCH_WEBHOOKS_FLOOR=1): during a
 * round with no endpoint, a bare sender process (webhook-sender-child.ts: no database, plain
 * `node:http` POSTs signed with `standardwebhooks`) sends the same 3 deliveries per scan to the
 * same receiver, at the dispatcher's default concurrency (16 in flight), at the separate worker's
 * nice value, as fast as the receiver answers (no pacing). Its ratio to the rounds
 * without endpoints is what delivering costs the door on this machine before any database work.
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Deliveries in flight, as MUSTER_WEBHOOKS_CONCURRENCY's default. */
const CONCURRENCY = 16;

/** Starts the sender at nice `nice` (the separate worker's, so the two compare). */
export async function startFloorSender(nice: number) {
  const child = fork(fileURLToPath(new URL('../webhook-sender-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve) => child.once('message', resolve));
  if (child.pid !== undefined) setPriority(child.pid, nice);
  return {
    /** Starts `count` POSTs over `urls`; resolves when all answered: 2xx count, CPU ms, end time. */
    send(urls: string[], count: number) {
      return new Promise<{ ok: number; cpuMs: number; endedAt: number }>((resolve) => {
        child.once('message', (m) =>
          resolve({ ...(m as { done: { ok: number; cpuMs: number } }).done, endedAt: performance.now() }),
        );
        child.send({ run: { urls, count, concurrency: CONCURRENCY } });
      });
    },
    close() {
      child.disconnect();
    },
  };
}
