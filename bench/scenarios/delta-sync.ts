/**
 * Delta sync (quality.md: 20 changed rows at 20,000): `?updated_since=<synced_at of a previous full
 * sync>` after 20 people changed their phone number.
 */
import { compareEndpoint } from '../compare.js';
import { changeRegistrations, waitForQuiet } from '../mutate.js';
import { RATIO_GOAL } from './full-sync.js';
import { type GoalLine, goalSize, type Scenario } from './types.js';

export const CHANGED = 20;
export const DELTA = `delta sync (${CHANGED} changed)`;

export const deltaSync: Scenario = {
  name: 'delta-sync',
  sizes: (all) => all,
  async run(ctx) {
    const base = `/api/v1/events/${ctx.event.eventId}/participants`;
    await waitForQuiet(ctx);
    const full = await fetch(ctx.appUrl + base, { headers: ctx.authHeaders });
    // Only the tail is kept: at 100,000 registrations the body is longer than V8's longest string.
    let tail = '';
    for await (const chunk of full.body ?? [])
      tail = (tail + Buffer.from(chunk).toString('latin1')).slice(-120);
    const since = /"synced_at":"([^"]+)"/.exec(tail)?.[1];
    if (full.status !== 200 || !since) throw new Error(`full sync failed: ${full.status}`);

    const touched = await changeRegistrations(ctx, CHANGED);
    await waitForQuiet(ctx);
    await ctx.host.call('refreshFloor');
    const path = `${base}?updated_since=${encodeURIComponent(since)}`;
    const check = await fetch(ctx.appUrl + path, { headers: ctx.authHeaders });
    const got = ((await check.json()) as { participants: unknown[] }).participants.length;
    ctx.log(
      `  delta: ${touched} registrations changed after synced_at ${since}; the endpoint returns ${got}`,
    );
    if (got !== touched) ctx.log(`  ! delta sync returned ${got} participants, expected ${touched}`);

    // The embedded database serves one connection: more clients would only measure its queue.
    await compareEndpoint(ctx, {
      scenario: DELTA,
      path,
      spec: { connections: ctx.db === 'pglite' ? 1 : 4, duration: ctx.quick ? 2 : 6, warmup: 20 },
      rounds: ctx.quick ? 2 : 4,
    });
  },

  goals(rows) {
    const size = goalSize(rows.filter((r) => r.scenario === DELTA).map((r) => r.n));
    return rows
      .filter((r) => r.scenario === DELTA && r.n === size)
      .map(
        (r): GoalLine => ({
          what: `delta sync, ${CHANGED} changed of ${r.n} (${r.connections} clients)`,
          db: r.db,
          measured: `p50 ${r.app.p50Ms} ms, p99 ${r.app.p99Ms} ms`,
          floor: r.floor ? `p50 ${r.floor.p50Ms} ms, p99 ${r.floor.p99Ms} ms` : '-',
          goal: `≤ ${RATIO_GOAL}x floor`,
          met: r.ratio === null ? null : r.ratio <= RATIO_GOAL,
          floorRatio: r.ratio,
        }),
      );
  },
};
