/**
 * Demo flights that move (docs/travel.md "Demo"): the demo event is three weeks ahead, so its
 * flights would never be tracked. A few journeys are moved to the seed's day instead: nine inbound
 * flight journeys land from 2½ hours before to 8 hours after the seed time, and four outbound ones
 * leave from 1½ to 10 hours after it (each journey's legs and times shifted together). With the
 * `demo` flight provider (the default on the embedded database) they are tracked at once:
 * delays, departures and landings appear on the arrivals board and in the API's live fields.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';

const MIN = 60_000;
const INBOUND_OFFSETS = [-150, -60, -20, 25, 70, 120, 200, 330, 480];
const OUTBOUND_OFFSETS = [90, 240, 420, 600];

async function planeTravels(tx: Tx, eventId: number, direction: 'inbound' | 'outbound', n: number) {
  const res = await tx.execute<{ id: number; anchor: number | null }>(sql`
    SELECT t.id, extract(epoch FROM (SELECT ${direction === 'inbound' ? sql`l.arrival_time` : sql`l.departure_time`} FROM travel_legs l
                   WHERE l.travel_id = t.id
                   ORDER BY l.position ${direction === 'inbound' ? sql`DESC` : sql`ASC`} LIMIT 1)) * 1000 AS anchor
      FROM travels t JOIN registrations r ON r.id = t.registration_id
     WHERE r.event_id = ${eventId} AND r.status = 'complete' AND t.direction = ${direction} AND t.mode = 'plane'
       AND EXISTS (SELECT 1 FROM travel_legs l WHERE l.travel_id = t.id AND l.flight_code IS NOT NULL)
     ORDER BY t.id LIMIT ${n}`);
  return res.rows.filter((r) => r.anchor !== null);
}

async function shift(tx: Tx, travelId: number, ms: number): Promise<void> {
  const by = sql`make_interval(secs => ${ms / 1000})`;
  await tx.execute(sql`UPDATE travel_legs SET departure_time = departure_time + ${by}, arrival_time = arrival_time + ${by}
                        WHERE travel_id = ${travelId}`);
  await tx.execute(sql`UPDATE travels SET departure_time = departure_time + ${by}, arrival_time = arrival_time + ${by},
                              expected_arrival_time = expected_arrival_time + ${by} WHERE id = ${travelId}`);
}

export async function seedTodaysFlights(tx: Tx, eventId: number, ref: number): Promise<void> {
  const inbound = await planeTravels(tx, eventId, 'inbound', INBOUND_OFFSETS.length);
  for (const [i, t] of inbound.entries())
    await shift(tx, t.id, ref + INBOUND_OFFSETS[i]! * MIN - Number(t.anchor));
  const outbound = await planeTravels(tx, eventId, 'outbound', OUTBOUND_OFFSETS.length);
  for (const [i, t] of outbound.entries())
    await shift(tx, t.id, ref + OUTBOUND_OFFSETS[i]! * MIN - Number(t.anchor));
}
