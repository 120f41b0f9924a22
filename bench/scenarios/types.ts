/**
 * Scenario modules: each exports `{ name, sizes, run }`. The runner seeds the bench event to each
 * size in ascending order and runs, at that size, every scenario whose `sizes` include it — on
 * PostgreSQL, then on the embedded database. New scenarios (check-in at 50 connections, chat blast
 * fan-out) are new files listed in scenarios/index.ts.
 */

import type { HostClient } from '../host-client.js';
import type { DbKind, ElStats, HostApi } from '../host-protocol.js';
import type { LoadStats } from '../load.js';
import type { BenchEvent } from '../seed-large.js';

/** One line of the printed table / results file. */
export interface ResultRow {
  scenario: string;
  db: DbKind;
  n: number;
  /** The request measured (path + query). */
  path: string;
  connections: number;
  app: LoadStats;
  floor: LoadStats | null;
  /** app p50 / floor p50. */
  ratio: number | null;
  /** Event-loop delay in the server process while the app served the load. */
  appEventLoop?: ElStats;
  floorEventLoop?: ElStats;
  /** The app's body equals the floor's (synced_at aside). */
  sameJson?: boolean;
  /** Accept-Encoding sent (both servers), and the decoded body's size in bytes (one response). */
  acceptEncoding?: string;
  rawBytes?: number;
}

/** One line of the goals table: a row of the performance issue's table, measured in this run. */
export interface GoalLine {
  what: string;
  db: DbKind;
  /** The absolute figures, as printed. */
  measured: string;
  goal: string;
  /** null: not measurable in this run (e.g. too few samples). */
  met: boolean | null;
  /** The floor's absolute figures in the same run, as printed (issue 32: every row shows it). */
  floor?: string;
  /** App / floor (p50) where a floor exists. */
  floorRatio?: number | null;
}

export interface BenchContext {
  readonly db: DbKind;
  /** Registrations currently seeded. */
  readonly n: number;
  /** Sizes this run seeds (ascending). */
  readonly sizes: readonly number[];
  readonly quick: boolean;
  readonly host: HostClient;
  readonly event: BenchEvent;
  /** Current server URLs (they change if a scenario restarts the host's servers). */
  appUrl: string;
  floorUrl: string;
  /** `Authorization` header of the global admin (full visibility). */
  readonly authHeaders: Record<string, string>;
  record(row: ResultRow): void;
  /** Extra results saved under `details[<scenario>][<db>]` in the results file. */
  attach(scenario: string, value: unknown): void;
  log(line: string): void;
  /** One SQL statement in the host (on the app's pool). */
  query: HostApi['query'];
}

export interface Scenario {
  name: string;
  /** The sizes (from the run's sizes) at which this scenario runs. */
  sizes(all: readonly number[]): readonly number[];
  run(ctx: BenchContext): Promise<void>;
  /** Lines printed after the table, from what the scenario attached (`details[<key>][<db>]`). */
  summary?(details: Readonly<Record<string, Record<string, unknown>>>): string[];
  /** Goal lines (absolute, goal, met, ratio to the floor) from this run's rows and details. */
  goals?(rows: readonly ResultRow[], details: Readonly<Record<string, Record<string, unknown>>>): GoalLine[];
}

export const largest = (all: readonly number[]) => all.slice(-1);

/**
 * The size the goals table reads (issue 32's table is measured at 20,000 registrations): 20,000
 * when the run seeded it, else the largest size with a row. The growth table (bench/growth.ts)
 * reads every size.
 */
export function goalSize(ns: readonly number[]): number {
  return ns.includes(20_000) ? 20_000 : Math.max(0, ...ns);
}

/** "1.23x", or "-" when there is no ratio. */
export const times = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '-' : `${x.toFixed(2)}x`;
