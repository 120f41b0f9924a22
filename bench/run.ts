/**
 * `npm run bench` (quality.md "Performance"): seeds a deterministic event (seed-large.ts) on
 * PostgreSQL and on the embedded database, runs every scenario (scenarios/index.ts) against the
 * real app and against the floor, prints the table and appends the run to bench/results/<date>.json.
 *
 * Flags: --quick (2,000 only, fewer requests: a smoke run), --only=pg|pglite,
 *        --sizes=2000,20000, --scenarios=full-sync,delta-sync,search,delta-plan,event-loop.
 * PostgreSQL: a fresh database muster_bench_<ts> on postgres://postgres@127.0.0.1:5432/postgres,
 * dropped afterwards; or BENCH_DATABASE_URL (used as is; the bench rows are removed before and after).
 * No timing is asserted anywhere: the machine is shared and noisy. Only the delta plan is checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { formatGrowth, growth } from './growth.js';
import { HostClient } from './host-client.js';
import type { DbKind, DbTarget, OpenResult } from './host-protocol.js';
import { formatGoals, formatTable, machineInfo, type RunRecord, saveRun } from './report.js';
import { scenarios } from './scenarios/index.js';
import type { BenchContext, ResultRow } from './scenarios/types.js';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** Registrations per seeding transaction (the embedded database prefers smaller ones). */
const BATCH: Record<DbKind, number> = { pg: 20_000, pglite: 5_000 };

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    sizes: { type: 'string' },
    scenarios: { type: 'string' },
  },
  strict: true,
});

const quick = values.quick ?? false;
if (values.only && values.only !== 'pg' && values.only !== 'pglite') {
  console.error('--only must be pg or pglite');
  process.exit(2);
}
const dbs: DbKind[] = values.only ? [values.only as DbKind] : ['pg', 'pglite'];
const sizes = (values.sizes ? values.sizes.split(',').map(Number) : quick ? [2_000] : [2_000, 20_000]).sort(
  (a, b) => a - b,
);
if (sizes.some((n) => !Number.isInteger(n) || n < 20)) {
  console.error('--sizes must be integers ≥ 20');
  process.exit(2);
}
const wanted = values.scenarios ? new Set(values.scenarios.split(',')) : null;
const selected = scenarios.filter((s) => !wanted || wanted.has(s.name));

const log = (line: string) => console.log(line);
const started = new Date();
const run: RunRecord = {
  // BENCH_CODE labels the code measured (A/B runs: "before: main abc1234", "after: …").
  ...(process.env.BENCH_CODE ? { code: process.env.BENCH_CODE } : {}),
  startedAt: started.toISOString(),
  finishedAt: '',
  durationSec: 0,
  flags: {
    quick,
    only: values.only ?? null,
    sizes,
    scenarios: selected.map((s) => s.name),
    // Variants of a run set through the environment (bench/README.md), when set.
    ...(process.env.BENCH_HOST_FLAGS ? { hostFlags: process.env.BENCH_HOST_FLAGS } : {}),
    ...(process.env.BENCH_CHECKIN_WARMUP ? { checkinWarmup: Number(process.env.BENCH_CHECKIN_WARMUP) } : {}),
    ...(process.env.MUSTER_DB_POOL_SIZE ? { poolSize: Number(process.env.MUSTER_DB_POOL_SIZE) } : {}),
  },
  machine: machineInfo(),
  databases: {},
  seeds: [],
  results: [],
  details: {},
  failures: [],
};

/** Cleanups to run on exit or Ctrl-C (drop the database, remove the data folder). */
const cleanups: (() => Promise<void>)[] = [];
async function cleanup(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!().catch((e: unknown) => console.error('cleanup failed:', e));
}
process.once('SIGINT', () => {
  console.error('\ninterrupted: cleaning up');
  void cleanup().finally(() => process.exit(130));
});

async function prepare(kind: DbKind): Promise<{ target: DbTarget; reset: boolean }> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'muster-bench-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return { target: { kind, dataDir: dir }, reset: false };
  }
  if (process.env.BENCH_DATABASE_URL)
    return { target: { kind, url: process.env.BENCH_DATABASE_URL }, reset: true };
  const name = `muster_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: DEFAULT_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    if (process.env.BENCH_KEEP_DB) {
      console.log(`kept database ${name} (BENCH_KEEP_DB)`);
      return;
    }
    const c = new pg.Client({ connectionString: DEFAULT_ADMIN_URL });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(DEFAULT_ADMIN_URL);
  url.pathname = `/${name}`;
  return { target: { kind, url: url.toString() }, reset: false };
}

async function benchDatabase(kind: DbKind): Promise<void> {
  const { target, reset } = await prepare(kind);
  const host = new HostClient();
  cleanups.push(() => host.shutdown(reset));
  const t0 = performance.now();
  const opened: OpenResult = await host.call('open', { target, reset });
  run.databases[kind] = {
    serverVersion: opened.serverVersion,
    poolSize: kind === 'pglite' ? 1 : opened.poolSize,
    mode:
      kind === 'pg'
        ? 'PostgreSQL server'
        : 'PGlite in a worker thread, PostgreSQL wire protocol on 127.0.0.1',
  };
  log(
    `\n=== ${kind} (PostgreSQL ${opened.serverVersion}) — open + migrate ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  let n = 0;
  const ctx: BenchContext = {
    db: kind,
    get n() {
      return n;
    },
    sizes,
    quick,
    host,
    event: opened.event,
    appUrl: opened.appUrl,
    floorUrl: opened.floorUrl,
    authHeaders: { authorization: `Bearer ${opened.event.adminToken}` },
    record: (row: ResultRow) => {
      run.results.push(row);
      log(
        `  ${row.scenario} [${row.db}, n=${row.n}]: p50 ${row.app.p50Ms} ms, p99 ${row.app.p99Ms} ms, ` +
          `${row.app.rps} req/s; floor p50 ${row.floor?.p50Ms ?? '-'} ms → ratio ${row.ratio ?? '-'}` +
          `${row.sameJson === false ? ' (JSON DIFFERS)' : ''}`,
      );
    },
    attach: (scenario: string, value: unknown) => {
      run.details[scenario] ??= {};
      run.details[scenario][kind] = value;
    },
    log,
    query: (args) => host.call('query', args),
  };

  for (const size of sizes) {
    const grown = await host.call('grow', { target: size, batchSize: BATCH[kind] });
    n = size;
    run.seeds.push({ db: kind, n: size, added: grown.added, seconds: Math.round(grown.seconds * 10) / 10 });
    log(`-- seeded ${size} registrations (+${grown.added} in ${grown.seconds.toFixed(1)} s)`);
    for (const scenario of selected) {
      if (!scenario.sizes(sizes).includes(size)) continue;
      const ts = performance.now();
      log(`- ${scenario.name} (n=${size})`);
      try {
        await scenario.run(ctx);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        run.failures.push({ db: kind, n: size, scenario: scenario.name, error: message });
        process.exitCode = 1;
        log(`  ! ${scenario.name} failed: ${message}`);
      }
      log(`  (${((performance.now() - ts) / 1000).toFixed(1)} s)`);
    }
  }
}

try {
  for (const kind of dbs) {
    try {
      await benchDatabase(kind);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      run.failures.push({ db: kind, n: 0, scenario: '(setup)', error: message });
      process.exitCode = 1;
    } finally {
      await cleanup();
    }
  }
} finally {
  const finished = new Date();
  run.finishedAt = finished.toISOString();
  run.durationSec = Math.round((finished.getTime() - started.getTime()) / 1000);
  run.loadAverageAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  log(`\n${formatTable(run.results)}`);
  log(
    'ratio = app p50 / floor p50 (floor: the same bytes read from a table of precomputed JSON per registration, ' +
      'streamed by bare node:http); raw KB = decoded body, wire KB = bytes received',
  );
  for (const scenario of selected) {
    const lines = scenario.summary?.(run.details) ?? [];
    if (lines.length) log(`\n${lines.join('\n')}`);
  }
  run.goals = selected.flatMap((scenario) => scenario.goals?.(run.results, run.details) ?? []);
  if (run.goals.length) log(`\nGoals (bench/README.md "Goals"):\n${formatGoals(run.goals)}`);
  run.growth = growth(run.results, sizes);
  if (run.growth.length) log(`\nGrowth (bench/README.md "Growth"):\n${formatGrowth(run.growth, sizes)}`);
  for (const f of run.failures) log(`FAILED ${f.scenario} [${f.db}, n=${f.n}]: ${f.error}`);
  const file = saveRun(run);
  log(
    `\nsaved ${path.relative(process.cwd(), file)} (${run.durationSec} s; load average ` +
      `${run.machine.loadAverage[0]} at start, ${run.loadAverageAtEnd[0]} at end on ${run.machine.cpus} CPUs)`,
  );
}
