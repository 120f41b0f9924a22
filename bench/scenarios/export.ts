/**
 * Participant exports at the largest size (20,000 registrations): `GET /events/{id}/exports/…` for
 * the `full` preset (every column, global admin) as XLSX and CSV, and `roster` as XLSX, each
 * downloaded over real HTTP from the app server: time to the last byte, bytes, and the server
 * process's resident-set growth while it streamed (sampled in the host by elStart/elStop).
 * The goal is bounded memory: the server's RSS must not grow with the file (≤ 128 MB for ~20 MB).
 */
import { type DownloadRun, measuredDownload } from './download.js';
import type { Scenario } from './types.js';
import { largest } from './types.js';

type ExportRun = DownloadRun;

const FILES = ['full.xlsx', 'full.csv', 'roster.xlsx'] as const;
const MEMORY_GOAL_MB = 128;

export const exportScenario: Scenario = {
  name: 'export',
  sizes: largest,
  async run(ctx) {
    const runs: ExportRun[] = [];
    for (const file of FILES) {
      const run = await measuredDownload(ctx, file);
      runs.push(run);
      ctx.log(
        `  export ${file} at ${ctx.n}: ${run.seconds} s, ${(run.bytes / 2 ** 20).toFixed(1)} MB, server RSS +${run.rssGrowthMB ?? '-'} MB`,
      );
    }
    ctx.attach('export', { n: ctx.n, runs });
  },

  summary(details) {
    const lines: string[] = [];
    for (const [db, d] of Object.entries(details.export ?? {})) {
      const { n, runs } = d as { n: number; runs: ExportRun[] };
      for (const r of runs)
        lines.push(
          `  ${db} ${n}: ${r.file} ${r.seconds} s, ${(r.bytes / 2 ** 20).toFixed(1)} MB, RSS +${r.rssGrowthMB ?? '-'} MB`,
        );
    }
    return lines.length ? ['exports (time to last byte, file size, server RSS growth):', ...lines] : [];
  },

  goals(_rows, details) {
    return Object.entries(details.export ?? {}).flatMap(([db, d]) => {
      const { n, runs } = d as { n: number; runs: ExportRun[] };
      const worst = Math.max(...runs.map((r) => r.rssGrowthMB ?? Number.NaN));
      return [
        {
          what: `export: server memory, ${n}`,
          db: db as 'pg' | 'pglite',
          measured: runs.map((r) => `${r.file} ${r.seconds} s, RSS +${r.rssGrowthMB ?? '-'} MB`).join('; '),
          goal: `RSS grows ≤ ${MEMORY_GOAL_MB} MB`,
          met: Number.isNaN(worst) ? null : worst <= MEMORY_GOAL_MB,
        },
      ];
    });
  },
};
