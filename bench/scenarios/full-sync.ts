/**
 * Full participant sync `GET /events/{id}/participants` (quality.md: at 2,000 and 20,000): without
 * compression, then with `Accept-Encoding: gzip` and `br` (contract §10) — wire bytes beside raw
 * bytes. The floor streams the same bytes from a table of precomputed JSON (floor.ts).
 */
import { compareEndpoint } from '../compare.js';
import type { LoadSpec } from '../load.js';
import type { BenchContext, GoalLine, ResultRow, Scenario } from './types.js';

/** One connection: the payload is megabytes and the figure wanted is the latency of one sync. */
function spec(ctx: BenchContext): LoadSpec {
  const big = ctx.n > 5_000;
  if (ctx.db === 'pg') {
    if (big) return { connections: 1, amount: ctx.quick ? 2 : 6, warmup: 1 };
    return { connections: 1, amount: ctx.quick ? 10 : 40, warmup: ctx.quick ? 2 : 4 };
  }
  if (big) return { connections: 1, amount: ctx.quick ? 2 : 4, warmup: 0 };
  return { connections: 1, amount: ctx.quick ? 6 : 16, warmup: ctx.quick ? 1 : 2 };
}

export const FULL_SYNC = 'full sync';
const ENCODINGS = ['gzip', 'br'] as const;

const MB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export const fullSync: Scenario = {
  name: 'full-sync',
  sizes: (all) => all,
  async run(ctx) {
    const floor = await ctx.host.call('refreshFloor');
    ctx.log(`  floor table filled: ${floor.rows} rows in ${floor.seconds.toFixed(1)} s`);
    const path = `/api/v1/events/${ctx.event.eventId}/participants`;
    // More, shorter interleaved rounds where requests are cheap enough: the machine is noisy.
    const rounds = ctx.n > 5_000 ? 2 : 4;
    await compareEndpoint(ctx, { scenario: FULL_SYNC, path, spec: spec(ctx), rounds });
    const compressed = { ...spec(ctx), amount: Math.max(2, Math.ceil((spec(ctx).amount ?? 4) / 2)) };
    for (const encoding of ENCODINGS) {
      await compareEndpoint(ctx, {
        scenario: `${FULL_SYNC} (${encoding})`,
        path,
        spec: compressed,
        rounds: 2,
        headers: { 'accept-encoding': encoding },
      });
    }
  },

  goals(rows) {
    const out: GoalLine[] = [];
    const largest = Math.max(0, ...rows.filter((r) => r.scenario === FULL_SYNC).map((r) => r.n));
    const at = (scenario: string, db: string) =>
      rows.find((r) => r.scenario === scenario && r.db === db && r.n === largest);
    for (const db of ['pg', 'pglite'] as const) {
      const plain = at(FULL_SYNC, db);
      if (!plain) continue;
      const gz = at(`${FULL_SYNC} (gzip)`, db);
      const line = (
        what: string,
        row: ResultRow | undefined,
        goal: string,
        measured: string,
        met: boolean | null,
      ) => out.push({ what: `${what}, ${largest}`, db, measured, goal, met, floorRatio: row?.ratio ?? null });
      line(
        'full sync: p50',
        plain,
        '≤ 2,500 ms',
        `p50 ${plain.app.p50Ms.toFixed(0)} ms (floor ${plain.floor?.p50Ms.toFixed(0) ?? '-'} ms)` +
          (gz
            ? `; gzip p50 ${gz.app.p50Ms.toFixed(0)} ms (floor ${gz.floor?.p50Ms.toFixed(0) ?? '-'} ms)`
            : ''),
        plain.app.p50Ms <= 2500 && (!gz || gz.app.p50Ms <= 2500),
      );
      if (gz) {
        line(
          'full sync: bytes on the wire (gzip)',
          gz,
          '≤ 15 MB',
          `${MB(gz.app.bytesPerResponse)} on the wire for ${MB(gz.rawBytes ?? 0)} of JSON`,
          gz.app.bytesPerResponse <= 15 * 2 ** 20,
        );
      }
      const el = plain.appEventLoop;
      // The floor's figures in the same process and run: what streaming these bytes costs alone.
      const fl = plain.floorEventLoop;
      line(
        'full sync: server memory',
        undefined,
        'RSS grows ≤ 64 MB',
        `RSS +${el?.rssGrowthMB ?? '-'} MB (from ${el?.rssStartMB ?? '-'} MB); floor +${fl?.rssGrowthMB ?? '-'} MB`,
        el?.rssGrowthMB === undefined ? null : el.rssGrowthMB <= 64,
      );
      line(
        'full sync: event-loop stall',
        undefined,
        '≤ 50 ms',
        `max ${el?.maxMs ?? '-'} ms (p99 ${el?.p99Ms ?? '-'} ms); floor max ${fl?.maxMs ?? '-'} ms (p99 ${fl?.p99Ms ?? '-'} ms)`,
        el ? el.maxMs <= 50 : null,
      );
    }
    return out;
  },
};
