/**
 * Rows of the arrivals board (docs/travel.md "Arrivals board"): for each plane journey of the
 * event's `complete` registrations, the leg that meets the event (inbound: the final leg;
 * outbound: the first leg) with its schedule, live fields and pickup facts, on one date of the
 * event's time zone (by the expected time: live, else scheduled). Every query carries the event id.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { LiveStatus } from '../../integrations/flights/provider.js';
import { isoSqlText } from '../../lib/time.js';

export type BoardRow = {
  travel_id: number;
  registration_id: number;
  direction: 'inbound' | 'outbound';
  first_name: string;
  last_name: string;
  preferred_name: string | null;
  is_unaccompanied_minor: boolean;
  flight_code: string | null;
  departure_airport: string | null;
  arrival_airport: string | null;
  departure_time: string | null;
  arrival_time: string | null;
  live_status: LiveStatus | null;
  live_departure_time: string | null;
  live_arrival_time: string | null;
  collected: boolean;
  checked_in: boolean;
  dismissed: boolean;
};

const ISO = (col: string) => sql.raw(isoSqlText(col));

export async function boardRows(db: Tx, eventId: number, date: string): Promise<BoardRow[]> {
  const res = await db.execute<BoardRow>(sql`
    SELECT t.id AS travel_id, r.id AS registration_id, t.direction, p.legal_first_name AS first_name,
           p.legal_last_name AS last_name, p.preferred_name, t.is_unaccompanied_minor,
           l.flight_code, l.departure_airport, l.arrival_airport,
           ${ISO('l.departure_time')} AS departure_time, ${ISO('l.arrival_time')} AS arrival_time, l.live_status,
           ${ISO('l.live_departure_time')} AS live_departure_time, ${ISO('l.live_arrival_time')} AS live_arrival_time,
           l.travel_picked_up_at IS NOT NULL AS collected, t.pickup_dismissed_at IS NOT NULL AS dismissed,
           EXISTS (SELECT 1 FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in
                    WHERE s.registration_id = r.id AND s.event_id = ${eventId}) AS checked_in
      FROM registrations r
      JOIN events e ON e.id = r.event_id
      JOIN people p ON p.id = r.person_id
      JOIN travels t ON t.registration_id = r.id AND t.mode = 'plane'
      JOIN LATERAL (SELECT * FROM travel_legs x WHERE x.travel_id = t.id
                     ORDER BY CASE WHEN t.direction = 'inbound' THEN -x.position ELSE x.position END, x.id
                     LIMIT 1) l ON true
     WHERE r.event_id = ${eventId} AND r.status = 'complete'
       AND to_char(CASE WHEN t.direction = 'inbound' THEN COALESCE(l.live_arrival_time, l.arrival_time)
                        ELSE COALESCE(l.live_departure_time, l.departure_time) END AT TIME ZONE e.timezone,
                   'YYYY-MM-DD') = ${date}
     ORDER BY t.direction, t.is_unaccompanied_minor DESC,
              CASE WHEN t.direction = 'inbound' THEN COALESCE(l.live_arrival_time, l.arrival_time)
                   ELSE COALESCE(l.live_departure_time, l.departure_time) END, p.legal_last_name, t.id`);
  return res.rows;
}
