/** Deterministic writes the delta scenarios make between two syncs. */

import type { BenchContext } from './scenarios/types.js';
import { benchEmail } from './seed-large.js';
import { watermarkStatement } from './sql.js';

/** Registration numbers 1..n spread evenly: the `count` rows a delta scenario changes. */
export function spreadNumbers(n: number, count: number): number[] {
  const step = Math.max(1, Math.floor(n / count));
  return Array.from({ length: Math.min(count, n) }, (_, k) => 1 + k * step + ((k * 7) % step));
}

/**
 * Changes `count` people's phone in one transaction (the people trigger bumps their registrations'
 * updated_at, contract §4). Returns how many registrations were touched.
 */
export async function changeRegistrations(
  ctx: BenchContext,
  count: number,
  salt = Date.now(),
): Promise<number> {
  const emails = spreadNumbers(ctx.n, count).map(benchEmail);
  const res = await ctx.query({
    text: `WITH u AS (
        UPDATE people SET phone = '+44 7711 ' || lpad(((id * 31 + $2::bigint) % 1000000)::text, 6, '0')
         WHERE lower(email) = ANY($1::text[]) RETURNING id)
      SELECT count(*)::int AS n FROM registrations r JOIN u ON u.id = r.person_id WHERE r.event_id = $3`,
    params: [emails, salt % 1_000_000, ctx.event.eventId],
  });
  return Number(res.rows[0]!.n);
}

/**
 * Waits until no other session of this database is inside a statement or transaction. The sync
 * watermark stays below the start of the oldest open transaction (participants.repo.ts), so a
 * request the load generator abandoned and the server is still running would hold it back.
 */
export async function waitForQuiet(ctx: BenchContext, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await ctx.query({
      text: `SELECT count(*)::int AS busy FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid()
                AND backend_type = 'client backend' AND xact_start IS NOT NULL`,
      params: [],
    });
    if (Number(res.rows[0]!.busy) === 0) return;
    if (Date.now() > deadline) throw new Error('the database did not become idle');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The current sync high-water mark, computed exactly as the list endpoint does. */
export async function currentWatermark(ctx: BenchContext): Promise<string> {
  const st = await watermarkStatement();
  const res = await ctx.query({ text: st.text, params: st.params });
  return String(res.rows[0]!.hw);
}
