/**
 * `start` (embedded database only): how long `muster serve` takes from spawning the process to the
 * first `GET /api/v1/healthz` 200, run as `npm start` runs it (built JS, `node bin/muster.js serve`,
 * no DATABASE_URL). First start on an empty data folder (the demo is seeded), then RESTARTS restarts
 * on that folder (median, min, max), and `muster migrate` alone on it. Goals (quality.md, start-up):
 * restart ≤ 2 s, first start with the demo ≤ 15 s.
 *
 * The code measured is this checkout, built first (`npm run build`); BENCH_START_ROOT=<checkout>
 * measures another one instead (already built; BENCH_START_LABEL names it in the results), e.g. for a
 * before/after pair.
 *   npm run bench -- --only=pglite --scenarios=start --sizes=20
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/support/processes.js';
import type { Scenario } from './types.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const RESTARTS = 5;
const GOAL_RESTART_MS = 2_000;
const GOAL_FIRST_MS = 15_000;

interface StartDetails {
  code: string;
  firstMs: number;
  restartsMs: number[];
  restartMedianMs: number;
  migrateMs: number;
  stopMs: number[];
}

function envFor(dir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MUSTER_DATA_DIR: dir,
    PORT: String(port),
    LOG_LEVEL: 'silent',
  };
  env.HOST = '127.0.0.1';
  delete env.DATABASE_URL;
  return env;
}

/** Spawn → healthz 200 (ms), then SIGTERM → exit (ms). */
async function timeStart(root: string, dir: string): Promise<{ startMs: number; stopMs: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'bin/muster.js'), 'serve', '--json'], {
    cwd: root,
    env: envFor(dir, port),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let startMs = Number.NaN;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited early: ${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/healthz`);
      if (res.status === 200) {
        startMs = performance.now() - t0;
        break;
      }
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > 300_000) throw new Error('serve did not answer within 300 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  // Stopped only once fully started (the --json line follows the job queue's start).
  const t1 = performance.now();
  child.kill('SIGTERM');
  await exited;
  return { startMs, stopMs: performance.now() - t1 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const met = (ms: number, goal: number) =>
  ms <= goal ? 'met' : `NOT met (${(ms / goal).toFixed(1)}x the goal)`;

export const start: Scenario = {
  name: 'start',
  sizes: (all) => all.slice(0, 1),
  async run(ctx) {
    if (ctx.db !== 'pglite') {
      ctx.log('  start: embedded database only (skipped on PostgreSQL)');
      return;
    }
    const root = process.env.BENCH_START_ROOT ?? REPO;
    if (!process.env.BENCH_START_ROOT)
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO, stdio: 'inherit' });
    const code =
      process.env.BENCH_START_LABEL ??
      execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'muster-bench-start-'));
    try {
      const first = await timeStart(root, dir);
      ctx.log(`  start: first start (demo) ${s(first.startMs)}`);
      const restarts: { startMs: number; stopMs: number }[] = [];
      for (let i = 0; i < RESTARTS; i++) {
        restarts.push(await timeStart(root, dir));
        ctx.log(`  start: restart ${i + 1}: ${s(restarts[i]!.startMs)}`);
      }
      const t0 = performance.now();
      execFileSync(process.execPath, [path.join(root, 'bin/muster.js'), 'migrate', '--json'], {
        cwd: root,
        env: envFor(dir, 0),
        stdio: 'ignore',
      });
      const details: StartDetails = {
        code,
        firstMs: Math.round(first.startMs),
        restartsMs: restarts.map((r) => Math.round(r.startMs)),
        restartMedianMs: Math.round(median(restarts.map((r) => r.startMs))),
        migrateMs: Math.round(performance.now() - t0),
        stopMs: [first, ...restarts].map((r) => Math.round(r.stopMs)),
      };
      ctx.attach('start', details);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  goals(_rows, details) {
    const d = details.start?.pglite as StartDetails | undefined;
    if (!d) return [];
    return [
      {
        what: 'embedded start, existing data folder (median of restarts)',
        db: 'pglite',
        measured: `${s(d.restartMedianMs)} (${d.restartsMs.map(s).join(', ')})`,
        goal: `≤ ${s(GOAL_RESTART_MS)}`,
        met: d.restartMedianMs <= GOAL_RESTART_MS,
      },
      {
        what: 'embedded first start with the demo',
        db: 'pglite',
        measured: s(d.firstMs),
        goal: `≤ ${s(GOAL_FIRST_MS)}`,
        met: d.firstMs <= GOAL_FIRST_MS,
      },
    ];
  },

  summary(details) {
    const d = details.start?.pglite as StartDetails | undefined;
    if (!d) return [];
    return [
      `start (embedded, code ${d.code}, node bin/muster.js serve → GET /api/v1/healthz 200):`,
      `  restart on an existing folder: median ${s(d.restartMedianMs)} (min ${s(Math.min(...d.restartsMs))}, max ${s(Math.max(...d.restartsMs))}); goal ≤ ${s(GOAL_RESTART_MS)}: ${met(d.restartMedianMs, GOAL_RESTART_MS)}`,
      `  first start with the demo: ${s(d.firstMs)}; goal ≤ ${s(GOAL_FIRST_MS)}: ${met(d.firstMs, GOAL_FIRST_MS)}`,
      `  muster migrate alone: ${s(d.migrateMs)}; SIGTERM → exit: median ${s(median(d.stopMs))}`,
    ];
  },
};
