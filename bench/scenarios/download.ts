/**
 * One file downloaded from the app the way the export and papers scenarios measure it:
 * `GET /api/v1/events/{id}/exports/{file}` over real HTTP, read to the last byte, with the server
 * process's resident set sampled by the host (elStart/elStop) while it streamed.
 */
import type { ElStats } from '../host-protocol.js';
import type { BenchContext } from './types.js';

/** A measured download: time to the last byte, bytes, the server's RSS at the start and its peak growth. */
export interface DownloadRun {
  file: string;
  seconds: number;
  bytes: number;
  rssStartMB: number | null;
  rssGrowthMB: number | null;
}

/** Downloads `file` (`full.xlsx`, `badges.pdf?status=all`) as the global admin; throws unless 200. */
export async function measuredDownload(ctx: BenchContext, file: string): Promise<DownloadRun> {
  await ctx.host.call('elStart');
  const t0 = performance.now();
  let bytes = 0;
  let el: ElStats;
  try {
    const res = await fetch(`${ctx.appUrl}/api/v1/events/${ctx.event.eventId}/exports/${file}`, {
      headers: ctx.authHeaders,
    });
    if (res.status !== 200 || !res.body) throw new Error(`download ${file} → ${res.status}`);
    for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
  } finally {
    el = await ctx.host.call('elStop');
  }
  return {
    file,
    seconds: Math.round(((performance.now() - t0) / 1000) * 100) / 100,
    bytes,
    rssStartMB: el.rssStartMB ?? null,
    rssGrowthMB: el.rssGrowthMB ?? null,
  };
}
