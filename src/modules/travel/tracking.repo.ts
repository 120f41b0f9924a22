/**
 * Queries of the live tracking job (docs/travel.md "Live tracking"): the legs due for a poll, a
 * leg's live fields, its tracking row, the once-only landing claim and the travel channel of the
 * live scan feed. Times are the caller's `now` (the job's clock), not the database's.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { LiveStatus } from '../../integrations/flights/provider.js';
import { isoSqlText } from '../../lib/time.js';

export type DueLeg = {
  id: number;
  travel_id: number;
  registration_id: number;
  event_id: number;
  direction: 'inbound' | 'outbound';
  flight_code: string;
  departure_airport: string | null;
  arrival_airport: string | null;
  departure_time: string;
  arrival_time: string | null;
  live_status: LiveStatus | null;
  live_departure_time: string | null;
  live_arrival_time: string | null;
  /** The travel's last leg (highest position): its landing is the journey's. */
  is_last: boolean;
};

const FINAL = sql.raw(`('landed', 'arrived', 'cancelled', 'diverted')`);
const ISO = (col: string) => sql.raw(isoSqlText(col));

/**
 * Plane legs with a flight code, departing from 24 h before to 12 h after `now`, not yet in a final
 * state, of registrations not withdrawn or rejected, and due: never tracked, or last tracked
 * `pollMinutes` ago (60 minutes while departure is more than 6 h away). Least recently tracked first.
 */
export async function dueLegs(db: Tx, now: Date, pollMinutes: number, limit: number): Promise<DueLeg[]> {
  const at = now.toISOString();
  const res = await db.execute<DueLeg>(sql`
    SELECT l.id, l.travel_id, t.registration_id, r.event_id, t.direction, upper(l.flight_code) AS flight_code,
           upper(l.departure_airport) AS departure_airport, upper(l.arrival_airport) AS arrival_airport,
           ${ISO('l.departure_time')} AS departure_time, ${ISO('l.arrival_time')} AS arrival_time,
           l.live_status, ${ISO('l.live_departure_time')} AS live_departure_time,
           ${ISO('l.live_arrival_time')} AS live_arrival_time,
           NOT EXISTS (SELECT 1 FROM travel_legs x WHERE x.travel_id = l.travel_id AND x.position > l.position) AS is_last
      FROM travel_legs l
      JOIN travels t ON t.id = l.travel_id AND t.mode = 'plane'
      JOIN registrations r ON r.id = t.registration_id AND r.status NOT IN ('withdrawn', 'rejected')
      LEFT JOIN travel_leg_tracking k ON k.leg_id = l.id
     WHERE l.flight_code IS NOT NULL AND btrim(l.flight_code) <> ''
       AND l.departure_time BETWEEN ${at}::timestamptz - interval '24 hours' AND ${at}::timestamptz + interval '12 hours'
       AND (l.live_status IS NULL OR l.live_status NOT IN ${FINAL})
       AND (k.last_tracked_at IS NULL OR k.last_tracked_at <= ${at}::timestamptz - CASE
             WHEN l.departure_time > ${at}::timestamptz + interval '6 hours' THEN interval '60 minutes'
             ELSE make_interval(mins => ${pollMinutes}) - interval '30 seconds' END)
     ORDER BY k.last_tracked_at NULLS FIRST, l.departure_time, l.id
     LIMIT ${limit}`);
  return res.rows;
}

export interface LiveFields {
  status: LiveStatus | null;
  departure: string | null;
  arrival: string | null;
}

/**
 * Writes the leg's live fields when they differ; true when it changed (the leg's trigger then bumps
 * its registration's `updated_at`, so delta sync carries the change).
 */
export async function writeLive(tx: Tx, legId: number, live: LiveFields): Promise<boolean> {
  const res = await tx.execute(sql`
    UPDATE travel_legs SET live_status = ${live.status}, live_departure_time = ${live.departure}::timestamptz,
           live_arrival_time = ${live.arrival}::timestamptz
     WHERE id = ${legId}
       AND (live_status IS DISTINCT FROM ${live.status}
            OR live_departure_time IS DISTINCT FROM ${live.departure}::timestamptz
            OR live_arrival_time IS DISTINCT FROM ${live.arrival}::timestamptz)`);
  return (res.rowCount ?? 0) > 0;
}

/** The leg's last tracked time and the provider's last answer (`ok`, `unknown`, `error`). */
export async function markTracked(tx: Tx, legId: number, now: Date, result: string): Promise<void> {
  await tx.execute(sql`
    INSERT INTO travel_leg_tracking (leg_id, last_tracked_at, last_result)
    VALUES (${legId}, ${now.toISOString()}::timestamptz, ${result})
    ON CONFLICT (leg_id) DO UPDATE SET last_tracked_at = EXCLUDED.last_tracked_at, last_result = EXCLUDED.last_result`);
}

/** Claims the leg's landing announcement: true exactly once per leg (and flight). */
export async function claimLanding(tx: Tx, legId: number, now: Date): Promise<boolean> {
  const res = await tx.execute(sql`
    UPDATE travel_leg_tracking SET landed_notified_at = ${now.toISOString()}::timestamptz
     WHERE leg_id = ${legId} AND landed_notified_at IS NULL`);
  return (res.rowCount ?? 0) > 0;
}

/** Appends a `flight_landed` entry to the event's live scan feed (its travel channel: no scan context). */
export async function appendLandingFeed(
  tx: Tx,
  eventId: number,
  payload: Record<string, unknown>,
): Promise<void> {
  await tx.execute(sql`INSERT INTO scan_feed (event_id, kind, payload)
                       VALUES (${eventId}, 'flight_landed', ${JSON.stringify(payload)}::json)`);
}
