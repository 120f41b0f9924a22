/** Shared helpers of the session, revocation and push-token tests. */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../src/deps.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { snapshotDb, type TableSnapshot } from '../support/app.js';

export const P = '/api/v1';
export const DAY = 24 * 60 * 60 * 1000;

/** Every row of the public schema plus the number of queued jobs: what a denied request must not change. */
export async function stateOf(
  deps: Pick<Deps, 'database' | 'db'>,
): Promise<{ tables: Record<string, TableSnapshot>; jobs: number }> {
  const res = await deps.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pgboss.job`);
  return { tables: await snapshotDb(deps), jobs: res.rows[0]!.n };
}

/** A distinct client IP per call (10.<first>.x.y), so per-IP rate limits never couple unrelated requests. */
export function ipSequence(first: number): () => string {
  let n = 0;
  return () => {
    n += 1;
    return `10.${first}.${(n >> 8) & 255}.${n & 255}`;
  };
}

/** A live mobile token for `userId`; `ttlMs` below 3 days makes it "near expiry". */
export async function mobileToken(deps: Pick<Deps, 'db'>, userId: number, ttlMs?: number) {
  return deps.db.transaction((tx) =>
    issueMobileToken(tx, userId, { deviceName: 'Test phone', ...(ttlMs ? { ttlMs } : {}) }),
  );
}
