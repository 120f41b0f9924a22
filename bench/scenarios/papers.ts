/**
 * Printouts and the typed XLSX at size (docs/exports.md "Streaming"): `badges.pdf` (one badge per
 * registration, vector QR codes, every status) and `full.xlsx` (every column, typed and styled),
 * downloaded over real HTTP from the app server at every seeded size: time to the last byte, bytes,
 * and the server's peak resident-set growth above its level when the download started. The goal:
 * memory flat in the row count and ≤ 100 MB above idle at 20,000.
 * `npm run bench -- --scenarios=papers --sizes=2000,20000` runs it alone.
 */
import { type DownloadRun, measuredDownload } from './download.js';
import type { Scenario } from './types.js';

type PaperRun = DownloadRun;

const FILES = ['badges.pdf?status=all', 'full.xlsx?status=all'] as const;
const MEMORY_GOAL_MB = 100;

export const papers: Scenario = {
  name: 'papers',
  sizes: (all) => all,
  async run(ctx) {
    const runs: PaperRun[] = [];
    for (const file of FILES) {
      const run = await measuredDownload(ctx, file);
      runs.push(run);
      ctx.log(
        `  papers ${file} at ${ctx.n}: ${run.seconds} s, ${(run.bytes / 2 ** 20).toFixed(1)} MB, server RSS ${run.rssStartMB ?? '-'} MB +${run.rssGrowthMB ?? '-'} MB peak`,
      );
    }
    ctx.attach(`papers-${ctx.n}`, { n: ctx.n, runs });
  },

  summary(details) {
    const lines: string[] = [];
    for (const [key, perDb] of Object.entries(details)) {
      if (!key.startsWith('papers-')) continue;
      for (const [db, d] of Object.entries(perDb)) {
        const { n, runs } = d as { n: number; runs: PaperRun[] };
        for (const r of runs)
          lines.push(
            `  ${db} ${n}: ${r.file} ${r.seconds} s, ${(r.bytes / 2 ** 20).toFixed(1)} MB, RSS ${r.rssStartMB ?? '-'} MB +${r.rssGrowthMB ?? '-'} MB`,
          );
      }
    }
    return lines.length
      ? ['printouts and XLSX (time to last byte, size, server RSS at start + peak growth):', ...lines]
      : [];
  },

  goals(_rows, details) {
    const byDb: Record<string, { n: number; runs: PaperRun[] }[]> = {};
    for (const [key, perDb] of Object.entries(details)) {
      if (!key.startsWith('papers-')) continue;
      for (const [db, d] of Object.entries(perDb)) {
        byDb[db] ??= [];
        byDb[db].push(d as { n: number; runs: PaperRun[] });
      }
    }
    return Object.entries(byDb).flatMap(([db, sizes]) => {
      sizes.sort((a, b) => a.n - b.n);
      const largest = sizes.at(-1)!;
      const smallest = sizes[0]!;
      return FILES.map((file) => {
        const big = largest.runs.find((r) => r.file === file)?.rssGrowthMB ?? null;
        const small = smallest.runs.find((r) => r.file === file)?.rssGrowthMB ?? null;
        const flat = big !== null && small !== null && sizes.length > 1 ? big - small <= 30 : null;
        return {
          what: `papers: ${file} server memory, ${smallest.n}→${largest.n}`,
          db: db as 'pg' | 'pglite',
          measured: `RSS +${small ?? '-'} MB at ${smallest.n}, +${big ?? '-'} MB at ${largest.n}`,
          goal: `≤ ${MEMORY_GOAL_MB} MB above idle, flat in the row count (±30 MB)`,
          met: big === null ? null : big <= MEMORY_GOAL_MB && flat !== false,
        };
      });
    });
  },
};
