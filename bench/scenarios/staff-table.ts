/**
 * The staff participants table page (`GET /staff/events/{id}/participants`, docs/staff-dashboard.md)
 * at the largest size (20,000 registrations): the first page by name, a deep page, a search, a
 * combination of filters, the sort by check-in time and the medical flags filter, each as the full
 * HTML page a signed-in global admin receives (session cookie; every column). There is no floor: the
 * page is HTML, not the JSON the floor serves. Goal (quality.md "a staff dashboard page ≤ 100 ms"):
 * p50 ≤ 100 ms on PostgreSQL.
 */
import { sampled } from '../compare.js';
import { type LoadStats, mergeSamples, runLoad, type Samples, summarize } from '../load.js';
import { type GoalLine, goalSize, type Scenario } from './types.js';

const GOAL_MS = 100;

const QUERIES: [label: string, query: string][] = [
  ['first page', ''],
  ['page 200', '?page=200'],
  ['search "ann"', '?q=ann'],
  ['filters', '?status=in_progress&minor=no&travel=inbound'],
  ['sort by check-in', '?sort=checked_in&dir=desc'],
  ['medical flags', '?flags=medical'],
];

export const staffTable: Scenario = {
  name: 'staff-table',
  sizes: (all) => all,
  async run(ctx) {
    const { cookie } = await ctx.host.call('sessionCookie');
    const headers = { cookie, accept: 'text/html' };
    // The embedded database serves one connection: more clients would only measure its queue.
    const connections = ctx.db === 'pglite' ? 1 : 2;
    for (const [label, query] of QUERIES) {
      const path = `/staff/events/${ctx.event.eventId}/participants${query}`;
      const probe = await fetch(ctx.appUrl + path, { headers });
      const html = await probe.text();
      if (probe.status !== 200 || !html.includes('<table')) {
        ctx.log(`  ! staff table ${label}: ${probe.status} ${html.slice(0, 200)}`);
        continue;
      }
      const { value: samples, el } = await sampled(ctx, async () => {
        const rounds: Samples[] = [];
        for (let round = 0; round < (ctx.quick ? 1 : 2); round++) {
          const spec = { connections, warmup: round === 0 ? 5 : 0, amount: ctx.quick ? 20 : 60 };
          rounds.push(await runLoad(ctx.appUrl + path, headers, spec));
        }
        return rounds;
      });
      const app: LoadStats = summarize(mergeSamples(samples));
      ctx.record({
        scenario: `staff table: ${label}`,
        db: ctx.db,
        n: ctx.n,
        path,
        connections,
        app,
        floor: null,
        ratio: null,
        appEventLoop: el,
        rawBytes: Buffer.byteLength(html),
      });
    }
  },

  goals(rows) {
    const size = goalSize(rows.filter((r) => r.scenario.startsWith('staff table:')).map((r) => r.n));
    return rows
      .filter((r) => r.scenario.startsWith('staff table:') && r.n === size)
      .map(
        (r): GoalLine => ({
          what: `${r.scenario}, ${r.n} (${r.connections} clients)`,
          db: r.db,
          measured: `p50 ${r.app.p50Ms} ms, p99 ${r.app.p99Ms} ms`,
          goal: `p50 ≤ ${GOAL_MS} ms (PostgreSQL)`,
          met: r.db === 'pg' ? r.app.p50Ms <= GOAL_MS : null,
        }),
      );
  },
};
