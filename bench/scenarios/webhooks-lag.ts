/**
 * The webhooks scenario's lag phase (scenarios/webhooks.ts): scans posted at RATE per second (at
 * most LAG_CONNECTIONS in flight), one endpoint subscribed; per scan, the time from its 200 answer
 * (its transaction committed) to its webhook's arrival at the receiver: p50, p99, max, and the p50
 * of each fifth of the scans in sending order (ms).
 */
import { percentile } from '../load.js';

export const RATE = 200; // scans per second
const LAG_CONNECTIONS = 50;

const r1 = (x: number) => Math.round(x * 10) / 10;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

export async function measureLag(o: {
  url: string;
  auth: Record<string, string>;
  regIds: number[];
  context: number;
  seconds: number;
  /** Resolves when no delivery is left to make. */
  drain: () => Promise<unknown>;
  /** Every arrival at the receiver so far: [scan_id, epoch ms]. */
  arrivals: () => Promise<[number, number][]>;
}) {
  const answered = new Map<number, number>(); // scan id → performance.now() of its 200
  const posts: Promise<void>[] = [];
  const t0 = performance.now();
  // At most LAG_CONNECTIONS posts in flight: an app that falls behind the rate must not make
  // the client open connections without bound (the listen queue overflows and resets them).
  let open = 0;
  let freed: (() => void) | undefined;
  for (let k = 0; k < RATE * o.seconds; k++) {
    const due = t0 + (k * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    while (open >= LAG_CONNECTIONS) await new Promise<void>((r) => (freed = r));
    open++;
    posts.push(
      fetch(o.url, {
        method: 'POST',
        headers: o.auth,
        body: JSON.stringify({
          participant_id: o.regIds[k % o.regIds.length],
          scan_context_id: o.context,
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
  await o.drain();
  const bySent: [number, number][] = []; // [answered at, lag]
  for (const [scanId, at] of await o.arrivals()) {
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
  return lag;
}
