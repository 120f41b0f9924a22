/** The printed table and `bench/results/<YYYY-MM-DD>.json` (one file per date; each run appended). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GrowthLine } from './growth.js';
import type { GoalLine, ResultRow } from './scenarios/types.js';

export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

export interface RunRecord {
  /** What code was measured (BENCH_CODE), for A/B runs. */
  code?: string;
  startedAt: string;
  finishedAt: string;
  durationSec: number;
  flags: { quick: boolean; only: string | null; sizes: number[]; scenarios: string[] };
  /** `loadAverage` in machine is taken at the start; this at the end (the machine is shared). */
  machine: ReturnType<typeof machineInfo>;
  loadAverageAtEnd?: number[];
  databases: Record<string, unknown>;
  seeds: { db: string; n: number; added: number; seconds: number }[];
  results: ResultRow[];
  goals?: GoalLine[];
  /** How each row grows with the size (bench/growth.ts). */
  growth?: GrowthLine[];
  details: Record<string, Record<string, unknown>>;
  failures: { db: string; n: number; scenario: string; error: string }[];
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
    node: process.version,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

const fmt = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits);

export function formatTable(rows: readonly ResultRow[]): string {
  const header = [
    'scenario',
    'db',
    'n',
    'conn',
    'p50 ms',
    'p99 ms',
    'req/s',
    'floor p50 ms',
    'ratio',
    'raw KB',
    'wire KB',
    'loop max ms',
  ];
  const body = rows.map((r) => [
    r.acceptEncoding && !r.scenario.includes(r.acceptEncoding)
      ? `${r.scenario} (${r.acceptEncoding})`
      : r.scenario,
    r.db,
    String(r.n),
    String(r.connections),
    fmt(r.app.p50Ms),
    fmt(r.app.p99Ms),
    fmt(r.app.rps),
    fmt(r.floor?.p50Ms),
    r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x`,
    r.rawBytes === undefined ? '-' : fmt(r.rawBytes / 1024, 0),
    fmt(r.app.bytesPerResponse / 1024, 0),
    fmt(r.appEventLoop?.maxMs, 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i <= 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function localDate(d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Appends the run to bench/results/<date>.json and returns the file's path. */
export function saveRun(run: RunRecord, date = localDate(new Date(run.startedAt))): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${date}.json`);
  let doc: { date: string; runs: RunRecord[] } = { date, runs: [] };
  if (existsSync(file)) {
    try {
      const old = JSON.parse(readFileSync(file, 'utf8')) as { runs?: RunRecord[] };
      if (Array.isArray(old.runs)) doc = { date, runs: old.runs };
    } catch {
      // An unreadable file is replaced rather than failing the run.
    }
  }
  doc.runs.push(run);
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

/** The goals table: each row of the performance issue's table, measured, goal, met, ratio to the floor. */
export function formatGoals(goals: readonly GoalLine[]): string {
  const header = ['goal row', 'db', 'measured', 'floor', 'goal', 'met', 'x floor'];
  const body = goals.map((g) => [
    g.what,
    g.db,
    g.measured,
    g.floor ?? '-',
    g.goal,
    g.met === null ? '?' : g.met ? 'met' : 'NOT met',
    g.floorRatio === null || g.floorRatio === undefined ? '-' : `${g.floorRatio.toFixed(2)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
