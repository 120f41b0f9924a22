/**
 * Event-loop impact of the database during the heaviest query (full sync at the largest size):
 * event-loop delay in the server process while the app serves it — the embedded database runs in
 * a worker thread, PostgreSQL in its own process — versus PGlite opened in-process on the main
 * thread running the same statement (`new PGlite(dir)` + `db.query`). Justifies the worker design.
 */
import type { ElStats } from '../host-protocol.js';
import { runLoad, summarize } from '../load.js';
import { wholeListSql } from '../sql.js';
import { largest, type Scenario } from './types.js';

export const eventLoop: Scenario = {
  name: 'event-loop',
  sizes: largest,
  async run(ctx) {
    const path = `/api/v1/events/${ctx.event.eventId}/participants`;
    const amount = ctx.quick ? 2 : 3;
    await ctx.host.call('elStart');
    const load = summarize(await runLoad(ctx.appUrl + path, ctx.authHeaders, { connections: 1, amount }));
    const server = await ctx.host.call('elStop');
    const where = ctx.db === 'pg' ? 'PostgreSQL server process' : 'PGlite in a worker thread';
    ctx.log(
      `  event loop, app serving full sync of ${ctx.n} (${where}): p99 ${server.p99Ms} ms, max ${server.maxMs} ms ` +
        `(request p50 ${load.p50Ms} ms); GC ${server.gc?.count} pauses (${server.gc?.majorCount} major), longest ${server.gc?.maxMs} ms`,
    );
    // The same window while the floor (bare node:http streaming precomputed JSON text, same process)
    // serves the same list: the stall that streaming these bytes costs without any of the app's code.
    await ctx.host.call('elStart');
    const floorLoad = summarize(
      await runLoad(ctx.floorUrl + path, ctx.authHeaders, { connections: 1, amount }),
    );
    const floor = await ctx.host.call('elStop');
    ctx.log(
      `  event loop, floor serving the same list: p99 ${floor.p99Ms} ms, max ${floor.maxMs} ms ` +
        `(request p50 ${floorLoad.p50Ms} ms); GC ${floor.gc?.count} pauses (${floor.gc?.majorCount} major), longest ${floor.gc?.maxMs} ms`,
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
