/**
 * Endpoint vs floor, measured the same way: one request to each first (a warm-up that also checks
 * both return the same JSON), then the load in interleaved rounds (app, floor, app, floor, …) so
 * slow drift on a shared machine hits both sides alike. Event-loop delay in the server process is
 * sampled during each side's load.
 */
import type { ElStats } from './host-protocol.js';
import { type LoadSpec, mergeSamples, runLoad, type Samples, summarize } from './load.js';
import type { BenchContext, ResultRow } from './scenarios/types.js';

export interface CompareOptions {
  scenario: string;
  /** Path + query, the same on both servers. */
  path: string;
  spec: LoadSpec;
  /**
   * Interleaved rounds (default 2); the request count is split between them. A `duration` (seconds
   * per side) is turned into a request count, see calibratedAmount.
   */
  rounds?: number;
  /** Extra request headers for both servers (e.g. accept-encoding). */
  headers?: Record<string, string>;
}

const SYNCED_AT = Buffer.from('"synced_at":"');

/**
 * The two bodies are equal but for the value of `synced_at` (its last occurrence). Bytes, not
 * strings: a list of 100,000 registrations (~0.6 GB) is longer than V8's longest string.
 */
export function sameBodies(a: Buffer, b: Buffer): boolean {
  const split = (x: Buffer): [Buffer, Buffer] => {
    const at = x.lastIndexOf(SYNCED_AT);
    if (at < 0) return [x, Buffer.alloc(0)];
    const end = x.indexOf('"', at + SYNCED_AT.length);
    return [x.subarray(0, at), x.subarray(end < 0 ? x.length : end)];
  };
  const [a1, a2] = split(a);
  const [b1, b2] = split(b);
  return a1.equals(b1) && a2.equals(b2);
}

async function fetchBody(url: string, headers: Record<string, string>): Promise<Buffer> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200)
    throw new Error(`GET ${url} → ${res.status}: ${body.subarray(0, 200).toString('utf8')}`);
  return body;
}

function mergeEl(parts: readonly ElStats[]): ElStats {
  return {
    samples: parts.reduce((s, p) => s + p.samples, 0),
    meanMs: Math.max(...parts.map((p) => p.meanMs)),
    p50Ms: Math.max(...parts.map((p) => p.p50Ms)),
    p99Ms: Math.max(...parts.map((p) => p.p99Ms)),
    maxMs: Math.max(...parts.map((p) => p.maxMs)),
    rssStartMB: Math.min(...parts.map((p) => p.rssStartMB ?? Number.POSITIVE_INFINITY)),
    rssGrowthMB: Math.max(...parts.map((p) => p.rssGrowthMB ?? 0)),
  };
}

/**
 * Runs `work` while the host samples its event loop, RSS and GC pauses: `work`'s result and those
 * stats. The sampling is stopped when `work` fails too, so the next window starts clean.
 */
export async function sampled<T>(
  ctx: BenchContext,
  work: () => Promise<T>,
): Promise<{ value: T; el: ElStats }> {
  await ctx.host.call('elStart');
  let value: T;
  try {
    value = await work();
  } catch (error) {
    await ctx.host.call('elStop').catch(() => undefined);
    throw error;
  }
  return { value, el: await ctx.host.call('elStop') };
}

/** Runs `spec` against `url` while the host samples its event loop, RSS and GC: the samples and those stats. */
export async function measured(
  ctx: BenchContext,
  url: string,
  headers: Record<string, string>,
  spec: LoadSpec,
): Promise<{ samples: Samples; el: ElStats }> {
  const { value: samples, el } = await sampled(ctx, () => runLoad(url, headers, spec));
  return { samples, el };
}

/**
 * A `duration` becomes a request count estimated from the first request's latency: autocannon
 * stops a timed run by dropping requests in flight, which loses the slow ones and leaves the server
 * busy with abandoned work while the other side is measured.
 */
function calibratedAmount(spec: LoadSpec, probeMs: number): number {
  const perSecond = (1000 / probeMs) * Math.min(spec.connections, 2);
  return Math.min(5_000, Math.max(2 * spec.connections, Math.ceil((spec.duration ?? 5) * perSecond)));
}

export async function compareEndpoint(ctx: BenchContext, opts: CompareOptions): Promise<ResultRow> {
  const rounds = Math.max(1, opts.rounds ?? 2);
  let t = performance.now();
  const extra = opts.headers ?? {};
  const appHeaders = { ...ctx.authHeaders, ...extra };
  // fetch() decodes gzip and br: the bodies compared are the decoded bytes.
  const appBody = await fetchBody(ctx.appUrl + opts.path, appHeaders);
  const appMs = performance.now() - t;
  t = performance.now();
  const floorBody = await fetchBody(ctx.floorUrl + opts.path, extra);
  const probeMs = Math.max(appMs, performance.now() - t, 1);
  const sameJson = sameBodies(appBody, floorBody);
  if (!sameJson) {
    ctx.log(
      `  ! ${opts.scenario}: the app's JSON differs from the floor's (${appBody.length} vs ${floorBody.length} bytes)`,
    );
  }

  const app: Samples[] = [];
  const floor: Samples[] = [];
  const appEl: ElStats[] = [];
  const floorEl: ElStats[] = [];
  const total = opts.spec.amount ?? calibratedAmount(opts.spec, probeMs);
  for (let i = 0; i < rounds; i++) {
    const spec: LoadSpec = {
      connections: opts.spec.connections,
      warmup: i === 0 ? opts.spec.warmup : 0,
      amount: Math.max(opts.spec.connections, Math.ceil(total / rounds)),
    };
    const a = await measured(ctx, ctx.appUrl + opts.path, appHeaders, spec);
    app.push(a.samples);
    appEl.push(a.el);
    const f = await measured(ctx, ctx.floorUrl + opts.path, extra, spec);
    floor.push(f.samples);
    floorEl.push(f.el);
  }
  const appStats = summarize(mergeSamples(app));
  const floorStats = summarize(mergeSamples(floor));
  if (appStats.errors || appStats.non2xx || floorStats.errors || floorStats.non2xx) {
    ctx.log(
      `  ! ${opts.scenario}: errors app=${appStats.errors}/${appStats.non2xx} floor=${floorStats.errors}/${floorStats.non2xx}`,
    );
  }
  const row: ResultRow = {
    scenario: opts.scenario,
    db: ctx.db,
    n: ctx.n,
    path: opts.path,
    connections: opts.spec.connections,
    app: appStats,
    floor: floorStats,
    ratio: Math.round((appStats.p50Ms / floorStats.p50Ms) * 100) / 100,
    appEventLoop: mergeEl(appEl),
    floorEventLoop: mergeEl(floorEl),
    sameJson,
    acceptEncoding: extra['accept-encoding'],
    rawBytes: appBody.length,
  };
  ctx.record(row);
  return row;
}
