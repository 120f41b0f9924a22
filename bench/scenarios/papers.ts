/**
 * Printouts and the typed XLSX at size (docs/exports.md "Streaming", docs/performance.md "Papers"):
 * `badges.pdf` (one badge per registration, vector QR codes, every status) and `full.xlsx` (every
 * column, typed and styled), downloaded over real HTTP from the app server at every seeded size.
 * Each file is downloaded twice: a first ("cold") download right after seeding, then a second
 * ("warm") one with the database's cache already holding the rows' pages. For each: time to the last
 * byte, bytes, and the server's memory above its level at the start (after a full collection): RSS
 * (the whole process; on the embedded database it includes PGlite, which runs in a worker thread of
 * the server and whose WebAssembly memory only grows), the main thread's JavaScript heap and
 * external memory at their peak and right after V8's own major collections (the live part), and what
 * is retained after a full collection at the end (bench/memory.ts).
 * The goal: ≤ 100 MB above idle at every size, and flat in the row count, judged on the warm
 * download's RSS and on the retained heap. "Flat" compares the two largest sizes when three or more
 * are run (`--sizes=2000,20000,100000`), else the two run: a server's first tens of thousands of
 * rows include V8 growing its young generation and heap limits to their working size, a fixed
 * cost reached once, not a cost per row (docs/performance.md "Papers", bench/xlsx-plateau.ts).
 * `npm run bench -- --scenarios=papers --sizes=2000,20000` runs it alone.
 */
import type { MemParts } from '../host-protocol.js';
import { type DownloadRun, measuredDownload } from './download.js';
import type { GoalLine, Scenario } from './types.js';

interface PaperRun extends DownloadRun {
  /** First download after seeding (cold database cache) or the second (warm). */
  pass: 'cold' | 'warm';
}
export interface PaperDetail {
  n: number;
  runs: PaperRun[];
}

/** BENCH_PAPERS_FILES="full.xlsx?status=all": measure only these files (comma-separated). */
const FILES = process.env.BENCH_PAPERS_FILES?.split(',').filter(Boolean) ?? [
  'badges.pdf?status=all',
  'full.xlsx?status=all',
];
const MEMORY_GOAL_MB = 100;
const FLAT_MB = 30;

const parts = (p: MemParts | undefined) =>
  p ? `rss ${p.rss} heap ${p.heapUsed} ext ${p.external} (ab ${p.arrayBuffers})` : '-';

function line(r: PaperRun): string {
  const m = r.mem;
  return (
    `${r.file} ${r.pass}: ${r.seconds} s, ${(r.bytes / 2 ** 20).toFixed(1)} MB; ` +
    `RSS ${m?.startMB.rss ?? r.rssStartMB ?? '-'} MB; peak +[${parts(m?.peakGrowthMB)}]; ` +
    `live (after V8's major GCs) +[${m?.afterMajorGcPeakMB ? `heap ${m.afterMajorGcPeakMB.heapUsed} ext ${m.afterMajorGcPeakMB.external}` : '-'}]; ` +
    `retained after GC +[${parts(m?.retainedMB)}] MB` +
    (m?.pglite
      ? `; PGlite ${m.pglite.startMB.wasm ?? '-'} MB wasm, ${m.pglite.startMB.heap} MB heap at the start: ` +
        `peak +[wasm ${m.pglite.peakGrowthMB.wasm ?? '-'} heap ${m.pglite.peakGrowthMB.heap}], ` +
        `end +[wasm ${m.pglite.endGrowthMB.wasm ?? '-'} heap ${m.pglite.endGrowthMB.heap}] MB`
      : '')
  );
}

/** The sizes "flat" compares: the two largest of three or more, else the smallest and the largest. */
export function flatPair(sizes: PaperDetail[]): [PaperDetail, PaperDetail] {
  return sizes.length >= 3 ? [sizes.at(-2)!, sizes.at(-1)!] : [sizes[0]!, sizes.at(-1)!];
}

function byDb(details: Record<string, Record<string, unknown>>): Record<string, PaperDetail[]> {
  const out: Record<string, PaperDetail[]> = {};
  for (const [key, perDb] of Object.entries(details)) {
    if (!key.startsWith('papers-')) continue;
    for (const [db, d] of Object.entries(perDb)) {
      out[db] ??= [];
      out[db].push(d as PaperDetail);
    }
  }
  for (const sizes of Object.values(out)) sizes.sort((a, b) => a.n - b.n);
  return out;
}

export const papers: Scenario = {
  name: 'papers',
  sizes: (all) => all,
  async run(ctx) {
    const runs: PaperRun[] = [];
    for (const file of FILES) {
      for (const pass of ['cold', 'warm'] as const) {
        const run: PaperRun = { ...(await measuredDownload(ctx, file)), pass };
        runs.push(run);
        ctx.log(`  papers at ${ctx.n}: ${line(run)}`);
      }
    }
    ctx.attach(`papers-${ctx.n}`, { n: ctx.n, runs } satisfies PaperDetail);
  },

  summary(details) {
    const lines: string[] = [];
    for (const [db, sizes] of Object.entries(byDb(details)))
      for (const { n, runs } of sizes) for (const r of runs) lines.push(`  ${db} ${n}: ${line(r)}`);
    return lines.length
      ? [
          'printouts and XLSX (time to last byte, size; server memory growth in MB above the start, after a full GC:',
          ' rss = whole process incl. PGlite; heap = main-thread JS heap; ext = external, ab = its ArrayBuffers):',
          ...lines,
        ]
      : [];
  },

  goals(_rows, details) {
    return Object.entries(byDb(details)).flatMap(([db, sizes]): GoalLine[] => {
      const [from, to] = flatPair(sizes);
      const find = (d: PaperDetail, file: string, pass: 'cold' | 'warm') =>
        d.runs.find((r) => r.file === file && r.pass === pass);
      return FILES.map((file) => {
        const warm = sizes.map((d) => find(d, file, 'warm'));
        const [wf, wt] = [find(from, file, 'warm'), find(to, file, 'warm')];
        const rss = (r?: PaperRun) => r?.mem?.peakGrowthMB.rss ?? null;
        const kept = (r?: PaperRun) => r?.mem?.retainedMB.heapUsed ?? null;
        const flat = (a: number | null, b: number | null) =>
          from !== to && a !== null && b !== null ? b - a <= FLAT_MB : null;
        const highest = Math.max(...warm.map((r) => rss(r) ?? Number.NEGATIVE_INFINITY));
        const met = !Number.isFinite(highest)
          ? null
          : highest <= MEMORY_GOAL_MB &&
            flat(rss(wf), rss(wt)) !== false &&
            flat(kept(wf), kept(wt)) !== false;
        const each = (f: (r?: PaperRun) => string | number | null | undefined, sign = '+') =>
          sizes.map((d) => `${sign}${f(find(d, file, 'warm')) ?? '-'}`).join(' → ');
        return {
          what: `papers: ${file} server memory, ${sizes.map((d) => d.n).join('/')} (flat: ${from.n}→${to.n})`,
          db: db as 'pg' | 'pglite',
          measured:
            `warm RSS ${each(rss)} MB, heap peak ${each((r) => r?.mem?.peakGrowthMB.heapUsed)} MB, ` +
            `live heap ${each((r) => r?.mem?.afterMajorGcPeakMB?.heapUsed)} MB, heap retained ${each(kept)} MB; ` +
            `cold RSS ${sizes.map((d) => `+${rss(find(d, file, 'cold')) ?? '-'}`).join(' → ')} MB; warm ${each((r) => r?.seconds, '')} s`,
          goal: `≤ ${MEMORY_GOAL_MB} MB above idle (warm) at every size; flat: ${to.n}'s growth within ${FLAT_MB} MB of ${from.n}'s`,
          met,
        };
      });
    });
  },
};
