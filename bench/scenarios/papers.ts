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
 * The goal: memory flat in the row count (20,000's growth within 30 MB of 2,000's) and ≤ 100 MB
 * above idle, judged on the warm download's RSS and on the retained heap.
 * `npm run bench -- --scenarios=papers --sizes=2000,20000` runs it alone.
 */
import type { MemParts } from '../host-protocol.js';
import { type DownloadRun, measuredDownload } from './download.js';
import type { GoalLine, Scenario } from './types.js';

interface PaperRun extends DownloadRun {
  /** First download after seeding (cold database cache) or the second (warm). */
  pass: 'cold' | 'warm';
}
interface PaperDetail {
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
    `retained after GC +[${parts(m?.retainedMB)}] MB`
  );
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
      const small = sizes[0]!;
      const big = sizes.at(-1)!;
      const find = (d: PaperDetail, file: string, pass: 'cold' | 'warm') =>
        d.runs.find((r) => r.file === file && r.pass === pass);
      return FILES.map((file) => {
        const [ws, wb] = [find(small, file, 'warm'), find(big, file, 'warm')];
        const [cs, cb] = [find(small, file, 'cold'), find(big, file, 'cold')];
        const rss = (r?: PaperRun) => r?.mem?.peakGrowthMB.rss ?? null;
        const kept = (r?: PaperRun) => r?.mem?.retainedMB.heapUsed ?? null;
        const two = sizes.length > 1;
        const flat = (a: number | null, b: number | null) =>
          two && a !== null && b !== null ? b - a <= FLAT_MB : null;
        const met =
          rss(wb) === null
            ? null
            : rss(wb)! <= MEMORY_GOAL_MB &&
              flat(rss(ws), rss(wb)) !== false &&
              flat(kept(ws), kept(wb)) !== false;
        return {
          what: `papers: ${file} server memory, ${small.n}→${big.n}`,
          db: db as 'pg' | 'pglite',
          measured:
            `warm RSS +${rss(ws) ?? '-'} → +${rss(wb) ?? '-'} MB, heap peak +${ws?.mem?.peakGrowthMB.heapUsed ?? '-'} → +${wb?.mem?.peakGrowthMB.heapUsed ?? '-'} MB, ` +
            `live heap +${ws?.mem?.afterMajorGcPeakMB?.heapUsed ?? '-'} → +${wb?.mem?.afterMajorGcPeakMB?.heapUsed ?? '-'} MB, ` +
            `heap retained +${kept(ws) ?? '-'} → +${kept(wb) ?? '-'} MB; cold RSS +${rss(cs) ?? '-'} → +${rss(cb) ?? '-'} MB; ` +
            `warm ${ws?.seconds ?? '-'} → ${wb?.seconds ?? '-'} s`,
          goal: `≤ ${MEMORY_GOAL_MB} MB above idle (warm), flat in the row count (±${FLAT_MB} MB)`,
          met,
        };
      });
    });
  },
};
