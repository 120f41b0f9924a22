/** Search `GET /events/{id}/participants/search?q=` (quality.md: at 20,000) with three kinds of term. */
import { compareEndpoint } from '../compare.js';
import { benchEmail } from '../seed-large.js';
import { largest, type Scenario } from './types.js';

export const search: Scenario = {
  name: 'search',
  sizes: largest,
  async run(ctx) {
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
    // The embedded database serves one connection: more clients would only measure its queue.
    for (const [label, q] of terms) {
      await compareEndpoint(ctx, {
        scenario: `search: ${label}`,
        path: `/api/v1/events/${ctx.event.eventId}/participants/search?q=${encodeURIComponent(q)}`,
        spec: { connections: ctx.db === 'pglite' ? 1 : 4, duration: ctx.quick ? 2 : 4, warmup: 10 },
        rounds: ctx.quick ? 2 : 4,
      });
    }
  },
};
