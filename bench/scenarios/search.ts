/** Search `GET /events/{id}/participants/search?q=` (quality.md: at 20,000) with three kinds of term. */
import { compareEndpoint } from '../compare.js';
import { benchEmail } from '../seed-large.js';
import { type GoalLine, largest, type Scenario } from './types.js';

/** The goal's load: 8 concurrent clients (on the embedded database too, queued on its connection). */
const CLIENTS = 8;

export const search: Scenario = {
  name: 'search',
  sizes: largest,
  async run(ctx) {
    await ctx.host.call('refreshFloor');
    const ids = await ctx.query({
      text: 'SELECT id FROM registrations WHERE event_id = $1 ORDER BY id OFFSET $2 LIMIT 1',
      params: [ctx.event.eventId, Math.floor(ctx.n / 3)],
    });
    const terms: [label: string, q: string][] = [
      // "ann" is in Anna, Hannah, Joanne and the nickname Annie: thousands of substring matches.
      ['name fragment', 'ann'],
      ['email', benchEmail(Math.floor(ctx.n / 2) + 3)],
      ['numeric id', String(ids.rows[0]!.id)],
    ];
    for (const [label, q] of terms) {
      await compareEndpoint(ctx, {
        scenario: `search: ${label}`,
        path: `/api/v1/events/${ctx.event.eventId}/participants/search?q=${encodeURIComponent(q)}`,
        spec: { connections: CLIENTS, duration: ctx.quick ? 2 : 4, warmup: 20 },
        rounds: ctx.quick ? 2 : 4,
      });
    }
  },

  goals(rows) {
    return rows
      .filter((r) => r.scenario.startsWith('search:'))
      .map(
        (r): GoalLine => ({
          what: `${r.scenario}, ${r.n} (${r.connections} clients)`,
          db: r.db,
          measured: `p50 ${r.app.p50Ms} ms, p99 ${r.app.p99Ms} ms, ${r.app.rps} req/s`,
          goal: `p99 ≤ 15 ms at ${CLIENTS} clients`,
          met: r.connections >= CLIENTS && r.app.p99Ms <= 15,
          floorRatio: r.ratio,
        }),
      );
  },
};
