/**
 * One file downloaded from the app the way the export and papers scenarios measure it:
 * `GET /api/v1/events/{id}/exports/{file}` over real HTTP, read to the last byte, with the server
 * process's resident set sampled by the host (elStart/elStop) while it streamed, and its memory by
 * part (memStart/memStop: JavaScript heap, external, retained after a full collection).
 */
import type { ElStats, MemStats } from '../host-protocol.js';
import type { BenchContext } from './types.js';

/** A measured download: time to the last byte, bytes, the server's RSS at the start and its peak growth. */
export interface DownloadRun {
  file: string;
  seconds: number;
  bytes: number;
  rssStartMB: number | null;
  rssGrowthMB: number | null;
  /** The server's memory by part over the download (bench/memory.ts). */
  mem?: MemStats;
}

/** Downloads `file` (`full.xlsx`, `badges.pdf?status=all`) as the global admin; throws unless 200. */
export async function measuredDownload(ctx: BenchContext, file: string): Promise<DownloadRun> {
  await ctx.host.call('memStart');
  await ctx.host.call('elStart');
  const t0 = performance.now();
  let bytes = 0;
  let el: ElStats;
  let mem: MemStats;
  try {
    const res = await fetch(`${ctx.appUrl}/api/v1/events/${ctx.event.eventId}/exports/${file}`, {
      headers: ctx.authHeaders,
    });
    if (res.status !== 200 || !res.body) throw new Error(`download ${file} → ${res.status}`);
    for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
  } finally {
    el = await ctx.host.call('elStop');
    mem = await ctx.host.call('memStop');
  }
  return {
    file,
    seconds: Math.round(((performance.now() - t0) / 1000) * 100) / 100,
    mem,
    bytes,
    rssStartMB: el.rssStartMB ?? null,
    rssGrowthMB: el.rssGrowthMB ?? null,
  };
}
