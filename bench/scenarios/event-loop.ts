/**
 * Event-loop impact of the database during the heaviest query (full sync at the largest size):
 * event-loop delay in the server process while the app serves it — the embedded database runs in
 * a worker thread, PostgreSQL in its own process — versus PGlite opened in-process on the main
 * thread running the same statement (`new PGlite(dir)` + `db.query`). Justifies the worker design.
 */
import { measured } from '../compare.js';
import type { ElStats } from '../host-protocol.js';
import { summarize } from '../load.js';
import { wholeListSql } from '../sql.js';
import { largest, type Scenario } from './types.js';

export const eventLoop: Scenario = {
  name: 'event-loop',
  sizes: largest,
  async run(ctx) {
    const path = `/api/v1/events/${ctx.event.eventId}/participants`;
    const amount = ctx.quick ? 2 : 3;
    const spec = { connections: 1, amount };
    const gcText = (el: ElStats) =>
      `GC ${el.gc?.count} pauses (${el.gc?.majorCount} major), longest ${el.gc?.maxMs} ms`;
    const app = await measured(ctx, ctx.appUrl + path, ctx.authHeaders, spec);
    const server = app.el;
    const load = summarize(app.samples);
    const where = ctx.db === 'pg' ? 'PostgreSQL server process' : 'PGlite in a worker thread';
    ctx.log(
      `  event loop, app serving full sync of ${ctx.n} (${where}): p99 ${server.p99Ms} ms, max ${server.maxMs} ms ` +
        `(request p50 ${load.p50Ms} ms); ${gcText(server)}`,
    );
    // The same window while the floor (bare node:http streaming precomputed JSON text, same process)
    // serves the same list: the stall that streaming these bytes costs without any of the app's code.
    const floorRun = await measured(ctx, ctx.floorUrl + path, {}, spec);
    const floor = floorRun.el;
    const floorLoad = summarize(floorRun.samples);
    ctx.log(
      `  event loop, floor serving the same list: p99 ${floor.p99Ms} ms, max ${floor.maxMs} ms ` +
        `(request p50 ${floorLoad.p50Ms} ms); ${gcText(floor)}`,
    );
    const details: Record<string, unknown> = {
      server: { ...server, database: where, requestP50Ms: load.p50Ms },
      floor: { ...floor, requestP50Ms: floorLoad.p50Ms },
    };

    if (ctx.db === 'pglite') {
      const text = await wholeListSql();
      const res = await ctx.host.call('inProcessPglite', {
        text,
        params: [ctx.event.eventId],
        repeats: ctx.quick ? 2 : 3,
      });
      ctx.appUrl = res.appUrl;
      ctx.floorUrl = res.floorUrl;
      ctx.log(
        `  event loop, same statement on an in-process PGlite (main thread): p99 ${res.el.p99Ms} ms, max ${res.el.maxMs} ms ` +
          `(query ${res.queryMs.join(', ')} ms)`,
      );
      details.inProcess = { ...res.el, queryMs: res.queryMs };
    }
    ctx.attach('event-loop', details);
  },

  summary(details) {
    const lines: string[] = [];
    for (const [db, d] of Object.entries(details['event-loop'] ?? {})) {
      const v = d as { server: ElStats & { database: string }; floor?: ElStats; inProcess?: ElStats };
      lines.push(`  ${db}: ${v.server.database}: p99 ${v.server.p99Ms} ms, max ${v.server.maxMs} ms`);
      if (v.floor)
        lines.push(
          `  ${db}: the floor serving the same list: p99 ${v.floor.p99Ms} ms, max ${v.floor.maxMs} ms`,
        );
      if (v.inProcess) {
        lines.push(
          `  ${db}: PGlite in-process on the main thread: p99 ${v.inProcess.p99Ms} ms, max ${v.inProcess.maxMs} ms`,
        );
      }
    }
    return lines.length
      ? ['event-loop delay in the server process during the largest full sync:', ...lines]
      : [];
  },
};
