/** Full participant sync `GET /events/{id}/participants` (quality.md: at 2,000 and 20,000). */
import { compareEndpoint } from '../compare.js';
import type { LoadSpec } from '../load.js';
import type { BenchContext, Scenario } from './types.js';

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

export const fullSync: Scenario = {
  name: 'full-sync',
  sizes: (all) => all,
  async run(ctx) {
    await compareEndpoint(ctx, {
      scenario: 'full sync',
      path: `/api/v1/events/${ctx.event.eventId}/participants`,
      spec: spec(ctx),
      // More, shorter interleaved rounds where requests are cheap enough: the machine is noisy.
      rounds: ctx.n > 5_000 ? 2 : 4,
    });
  },
};
