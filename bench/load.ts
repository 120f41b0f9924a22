/**
 * HTTP load with autocannon (programmatic). Latencies are taken from autocannon's per-response
 * event (sub-millisecond precision; its histogram rounds to whole ms) and req/s from the first
 * request to the last response (its own duration waits for the next sampling tick).
 */
import http from 'node:http';
import autocannon from 'autocannon';

export interface LoadSpec {
  connections: number;
  /** Fixed number of measured requests (for slow, large responses)… */
  amount?: number;
  /** …or a measured duration in seconds (for fast ones). */
  duration?: number;
  /** Requests sent first and discarded. */
  warmup?: number;
}

export interface Samples {
  latencies: number[];
  bytes: number;
  elapsedMs: number;
  errors: number;
  non2xx: number;
}

export interface LoadStats {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
  rps: number;
  bytesPerResponse: number;
  errors: number;
  non2xx: number;
}

/** Per-request timeout: a full sync of 20,000 on the embedded database takes seconds. */
const TIMEOUT_S = 300;

async function once(
  url: string,
  headers: Record<string, string>,
  spec: LoadSpec,
  count?: number,
): Promise<Samples> {
  const latencies: number[] = [];
  let bytes = 0;
  let last = 0;
  const started = performance.now();
  const amount = count ?? spec.amount;
  if (spec.connections === 1 && amount) return sequential(url, headers, amount);
  const instance = autocannon({
    url,
    headers,
    connections: Math.min(spec.connections, amount ?? spec.connections),
    timeout: TIMEOUT_S,
    sampleInt: 100,
    ...(amount ? { amount } : { duration: spec.duration ?? 5 }),
  });
  instance.on('response', (_client: unknown, status: number, resBytes: number, responseTime: number) => {
    last = performance.now();
    if (status >= 200 && status < 300) {
      latencies.push(responseTime);
      bytes += resBytes;
    }
  });
  const result = await instance;
  return {
    latencies,
    bytes,
    elapsedMs: (last || performance.now()) - started,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * `amount` requests one after another on one connection through node:http: the latency from the
 * request to the body's last byte, and the bytes received (compressed if the server compressed).
 * Used instead of autocannon for one-connection runs, whose bodies may be huge: autocannon keeps
 * each body as a string, and a full sync of 100,000 registrations (~0.6 GB) is longer than V8's
 * longest string.
 */
async function sequential(url: string, headers: Record<string, string>, amount: number): Promise<Samples> {
  const latencies: number[] = [];
  let bytes = 0;
  let errors = 0;
  let non2xx = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  try {
    for (let i = 0; i < amount; i++) {
      const t0 = performance.now();
      try {
        const { status, size } = await new Promise<{ status: number; size: number }>((resolve, reject) => {
          const req = http.get(url, { headers, agent, timeout: TIMEOUT_S * 1000 }, (res) => {
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, size }));
            res.on('error', reject);
          });
          req.on('timeout', () => req.destroy(new Error('timeout')));
          req.on('error', reject);
        });
        if (status >= 200 && status < 300) {
          latencies.push(performance.now() - t0);
          bytes += size;
        } else non2xx++;
      } catch {
        errors++;
      }
    }
  } finally {
    agent.destroy();
  }
  return { latencies, bytes, elapsedMs: performance.now() - started, errors, non2xx };
}

/** Warm-up (discarded), then the measured run. */
export async function runLoad(
  url: string,
  headers: Record<string, string>,
  spec: LoadSpec,
): Promise<Samples> {
  if (spec.warmup) await once(url, headers, spec, spec.warmup);
  return once(url, headers, spec);
}

export function mergeSamples(parts: readonly Samples[]): Samples {
  return {
    latencies: parts.flatMap((p) => p.latencies),
    bytes: parts.reduce((s, p) => s + p.bytes, 0),
    elapsedMs: parts.reduce((s, p) => s + p.elapsedMs, 0),
    errors: parts.reduce((s, p) => s + p.errors, 0),
    non2xx: parts.reduce((s, p) => s + p.non2xx, 0),
  };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

export function summarize(s: Samples): LoadStats {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const n = sorted.length;
  return {
    requests: n,
    p50Ms: r2(percentile(sorted, 50)),
    p99Ms: r2(percentile(sorted, 99)),
    meanMs: r2(n ? sorted.reduce((a, b) => a + b, 0) / n : Number.NaN),
    minMs: r2(sorted[0] ?? Number.NaN),
    maxMs: r2(sorted[n - 1] ?? Number.NaN),
    rps: r2(s.elapsedMs > 0 ? (n * 1000) / s.elapsedMs : 0),
    bytesPerResponse: n ? Math.round(s.bytes / n) : 0,
    errors: s.errors,
    non2xx: s.non2xx,
  };
}
