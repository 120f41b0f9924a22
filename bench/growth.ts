/**
 * The growth table (issue 32 item 5): how each measured row grows with the event's size, e.g.
 * 2,000 → 20,000 → 100,000 registrations. One line per (row, database) measured at two or more
 * sizes: the figure at each size, the factor between consecutive sizes, and, where the issue sets
 * one, the goal on the step from 20,000 to the largest size (full sync p50 ≤ 5.5x; search p99,
 * delta p50 and the staff-table page within 1.3x of their 20,000 figures).
 */

import { CHECKIN_ROW } from './scenarios/checkin.js';
import { DELTA } from './scenarios/delta-sync.js';
import { FULL_SYNC } from './scenarios/full-sync.js';
import type { ResultRow } from './scenarios/types.js';
import { goalSize } from './scenarios/types.js';

interface GrowthSpec {
  /** Which rows (by scenario name). */
  match: (scenario: string) => boolean;
  metric: 'p50' | 'p99' | 'rps';
  /** Largest allowed factor from 20,000 to the largest size (issue 32's Done-when), if any. */
  maxFactor?: number;
}

const SPECS: GrowthSpec[] = [
  { match: (s) => s === FULL_SYNC, metric: 'p50', maxFactor: 5.5 },
  { match: (s) => s === `${FULL_SYNC} (gzip)`, metric: 'p50' },
  { match: (s) => s === DELTA, metric: 'p50', maxFactor: 1.3 },
  { match: (s) => s.startsWith('search:'), metric: 'p99', maxFactor: 1.3 },
  { match: (s) => s.startsWith('search:'), metric: 'p50' },
  { match: (s) => s === 'staff table: first page', metric: 'p50', maxFactor: 1.3 },
  { match: (s) => s.startsWith('staff table:') && s !== 'staff table: first page', metric: 'p50' },
  { match: (s) => s === CHECKIN_ROW, metric: 'rps' },
];

const value = (r: ResultRow, metric: GrowthSpec['metric']) =>
  metric === 'p50' ? r.app.p50Ms : metric === 'p99' ? r.app.p99Ms : r.app.rps;

export interface GrowthLine {
  row: string;
  db: string;
  metric: string;
  /** Figure per size (ms; scans/s for the door), null where not measured. */
  values: (number | null)[];
  /** Factor between consecutive sizes. */
  factors: (number | null)[];
  goal: string;
  met: boolean | null;
}

/** Growth lines from a run's rows; `sizes` ascending. */
export function growth(rows: readonly ResultRow[], sizes: readonly number[]): GrowthLine[] {
  if (sizes.length < 2) return [];
  const from = goalSize(sizes);
  const to = sizes[sizes.length - 1]!;
  const out: GrowthLine[] = [];
  for (const spec of SPECS) {
    const keys = [
      ...new Set(rows.filter((r) => spec.match(r.scenario)).map((r) => `${r.db}\t${r.scenario}`)),
    ];
    for (const key of keys) {
      const [db, scenario] = key.split('\t') as [string, string];
      const values = sizes.map((n) => {
        const r = rows.find((x) => x.db === db && x.scenario === scenario && x.n === n);
        return r ? value(r, spec.metric) : null;
      });
      if (values.filter((v) => v !== null).length < 2) continue;
      const factors = values.slice(1).map((v, i) => {
        const prev = values[i];
        return v === null || prev === null || prev === undefined || prev === 0 ? null : v / prev;
      });
      const a = values[sizes.indexOf(from)];
      const b = values[sizes.length - 1];
      const step = a != null && b != null && to > from && a > 0 ? b / a : null;
      out.push({
        row: scenario,
        db,
        metric: spec.metric === 'rps' ? 'scans/s' : `${spec.metric} ms`,
        values,
        factors,
        goal: spec.maxFactor ? `${from / 1000}k→${to / 1000}k ≤ ${spec.maxFactor}x` : '-',
        met: spec.maxFactor && step !== null ? step <= spec.maxFactor : null,
      });
    }
  }
  return out;
}

/** The printed growth table. */
export function formatGrowth(lines: readonly GrowthLine[], sizes: readonly number[]): string {
  const k = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));
  const header = [
    'row',
    'db',
    'metric',
    ...sizes.map(k),
    ...sizes.slice(1).map((n, i) => `${k(sizes[i]!)}→${k(n)}`),
    'goal',
    'met',
  ];
  const num = (x: number | null) => (x === null ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const body = lines.map((l) => [
    l.row,
    l.db,
    l.metric,
    ...l.values.map(num),
    ...l.factors.map((f) => (f === null ? '-' : `${f.toFixed(2)}x`)),
    l.goal,
    l.met === null ? '-' : l.met ? 'met' : 'NOT met',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i <= 2 || i >= cells.length - 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
