/**
 * The tracking job's provider-call budget and error backoff (docs/travel.md "Budgets"), kept in
 * `flight_tracking_usage` so that every worker process shares them: calls per UTC clock hour and
 * per UTC day, and after provider errors a pause that doubles from one minute up to an hour.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { FlightsConfig } from '../../lib/flights-config.js';

const hourBucket = (now: Date) => `hour:${now.toISOString().slice(0, 13)}`;
const dayBucket = (now: Date) => `day:${now.toISOString().slice(0, 10)}`;
const BACKOFF = 'backoff';
const MINUTE = 60_000;

/**
 * Reserves one call in this hour's and this day's budget (both, or neither); the name of the budget
 * that is used up otherwise.
 */
export async function reserveCall(db: Db, config: FlightsConfig, now: Date): Promise<'hour' | 'day' | null> {
  return db.transaction(async (tx) => {
    const hour = await take(tx, hourBucket(now), config.budgetPerHour);
    if (!hour) return 'hour';
    if (await take(tx, dayBucket(now), config.budgetPerDay)) return null;
    await tx.execute(
      sql`UPDATE flight_tracking_usage SET calls = calls - 1 WHERE bucket = ${hourBucket(now)}`,
    );
    return 'day';
  });
}

async function take(tx: Tx, bucket: string, limit: number): Promise<boolean> {
  if (limit <= 0) return false;
  const res = await tx.execute(sql`
    INSERT INTO flight_tracking_usage (bucket, calls) VALUES (${bucket}, 1)
    ON CONFLICT (bucket) DO UPDATE SET calls = flight_tracking_usage.calls + 1, updated_at = now()
     WHERE flight_tracking_usage.calls < ${limit}`);
  return (res.rowCount ?? 0) > 0;
}

/** When the provider may be called again after errors (null: now). */
export async function backoffUntil(db: Db | Tx, now: Date): Promise<Date | null> {
  const res = await db.execute<{ until: string | null }>(
    sql`SELECT until::text FROM flight_tracking_usage WHERE bucket = ${BACKOFF}`,
  );
  const until = res.rows[0]?.until ? new Date(res.rows[0].until) : null;
  return until && until > now ? until : null;
}

/** A provider error: the pause doubles (1, 2, 4 … 60 minutes); returns its end. */
export async function recordProviderError(db: Db, now: Date): Promise<Date> {
  const res = await db.execute<{ calls: number }>(sql`
    INSERT INTO flight_tracking_usage (bucket, calls) VALUES (${BACKOFF}, 1)
    ON CONFLICT (bucket) DO UPDATE SET calls = flight_tracking_usage.calls + 1, updated_at = now()
    RETURNING calls`);
  const errors = one(res.rows).calls;
  const until = new Date(now.getTime() + Math.min(2 ** (errors - 1), 60) * MINUTE);
  await db.execute(
    sql`UPDATE flight_tracking_usage SET until = ${until.toISOString()}::timestamptz WHERE bucket = ${BACKOFF}`,
  );
  return until;
}

export async function clearBackoff(db: Db): Promise<void> {
  await db.execute(sql`DELETE FROM flight_tracking_usage WHERE bucket = ${BACKOFF}`);
}

/** Counters older than two days are dropped. */
export async function pruneUsage(db: Db, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - 2 * 24 * 60 * MINUTE);
  const day = `day:${cutoff.toISOString().slice(0, 10)}`;
  const hour = `hour:${cutoff.toISOString().slice(0, 13)}`;
  await db.execute(sql`DELETE FROM flight_tracking_usage
                        WHERE (bucket LIKE 'day:%' AND bucket < ${day}) OR (bucket LIKE 'hour:%' AND bucket < ${hour})`);
}

export interface TrackingState {
  provider: string;
  budgetPerHour: number;
  budgetPerDay: number;
  callsThisHour: number;
  callsToday: number;
  /** Which budget is used up right now, if any. */
  exhausted: 'hour' | 'day' | null;
  /** Paused after provider errors until then (ISO), or null. */
  pausedUntil: string | null;
}

/** What the arrivals board shows about tracking: the provider, its budget use and any pause. */
export async function trackingState(db: Db, config: FlightsConfig, now: Date): Promise<TrackingState> {
  const res = await db.execute<{ bucket: string; calls: number }>(sql`
    SELECT bucket, calls FROM flight_tracking_usage WHERE bucket IN (${hourBucket(now)}, ${dayBucket(now)})`);
  const calls = (b: string) => res.rows.find((r) => r.bucket === b)?.calls ?? 0;
  const hour = calls(hourBucket(now));
  const day = calls(dayBucket(now));
  const paused = await backoffUntil(db, now);
  return {
    provider: config.provider,
    budgetPerHour: config.budgetPerHour,
    budgetPerDay: config.budgetPerDay,
    callsThisHour: hour,
    callsToday: day,
    exhausted: day >= config.budgetPerDay ? 'day' : hour >= config.budgetPerHour ? 'hour' : null,
    pausedUntil: paused?.toISOString() ?? null,
  };
}
