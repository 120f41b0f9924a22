/**
 * Travel calendar rows (docs/decisions.md "Travel calendar"): one row per travel record of the event's `complete`
 * registrations, with its legs, the registration's groups, its primary time and that time's date in the event's time zone.
 * Every query carries the event id.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { isoSqlText } from '../../lib/time.js';

export type LegRow = {
  code: string | null;
  from: string | null;
  to: string | null;
};

export type GroupRow = { id: number; name: string; color: string | null };

export type TravelRow = {
  id: number;
  person_id: number;
  registration_id: number;
  first_name: string;
  last_name: string;
  preferred_name: string | null;
  direction: 'inbound' | 'outbound';
  mode: string;
  flight_number: string | null;
  train_departure_station: string | null;
  train_arrival_station: string | null;
  departure_station: string | null;
  arrival_station: string | null;
  departure_city: string | null;
  arrival_city: string | null;
  bus_departure_location: string | null;
  bus_arrival_location: string | null;
  origin_address: string | null;
  other_details: string | null;
  is_unaccompanied_minor: boolean;
  dismissed: boolean;
  /** The inbound final leg (highest position) has `travel_picked_up_at`. */
  collected: boolean;
  /** The registration has a scan in a `checks_in` context. */
  checked_in: boolean;
  legs: LegRow[];
  /** The registration's groups by name (empty when the event's groups module is off). */
  groups: GroupRow[];
  primary_at: string | null;
  agenda_date: string | null;
};

/**
 * Primary time: inbound → the final leg's arrival, else the travel's `arrival_time`, else its
 * `expected_arrival_time`; outbound → the first leg's departure, else the travel's `departure_time`.
 * Ordered by primary time (unscheduled last), then name, then travel id.
 */
export async function travelRows(db: Tx, eventId: number): Promise<TravelRow[]> {
  const res = await db.execute<TravelRow>(sql`
    WITH base AS (
      SELECT t.*, p.id AS person_id, p.legal_first_name AS first_name, p.legal_last_name AS last_name,
             p.preferred_name, r.id AS reg_id, e.timezone,
             COALESCE((e.modules->>'groups_enabled')::boolean, false) AS groups_on,
             CASE WHEN t.direction = 'inbound'
                  THEN COALESCE(lastleg.arrival_time, t.arrival_time, t.expected_arrival_time)
                  ELSE COALESCE(firstleg.departure_time, t.departure_time) END AS primary_ts,
             COALESCE(lastleg.travel_picked_up_at IS NOT NULL, false) AS leg_collected
        FROM registrations r
        JOIN events e ON e.id = r.event_id
        JOIN people p ON p.id = r.person_id
        JOIN travels t ON t.registration_id = r.id
        LEFT JOIN LATERAL (SELECT l.arrival_time, l.travel_picked_up_at FROM travel_legs l
                            WHERE l.travel_id = t.id ORDER BY l.position DESC, l.id DESC LIMIT 1) lastleg ON true
        LEFT JOIN LATERAL (SELECT l.departure_time FROM travel_legs l
                            WHERE l.travel_id = t.id ORDER BY l.position, l.id LIMIT 1) firstleg ON true
       WHERE r.event_id = ${eventId} AND r.status = 'complete'
    )
    SELECT b.id, b.person_id, b.reg_id AS registration_id, b.first_name, b.last_name, b.preferred_name,
           b.direction, b.mode, b.flight_number, b.train_departure_station, b.train_arrival_station,
           b.departure_station, b.arrival_station, b.departure_city, b.arrival_city,
           b.bus_departure_location, b.bus_arrival_location, b.origin_address, b.other_details,
           b.is_unaccompanied_minor, b.pickup_dismissed_at IS NOT NULL AS dismissed,
           b.direction = 'inbound' AND b.leg_collected AS collected,
           EXISTS (SELECT 1 FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id
                    WHERE s.registration_id = b.reg_id AND s.event_id = ${eventId} AND sc.checks_in) AS checked_in,
           COALESCE((SELECT json_agg(json_build_object('code', l.flight_code, 'from', l.departure_airport,
                                                       'to', l.arrival_airport) ORDER BY l.position, l.id)
                       FROM travel_legs l WHERE l.travel_id = b.id), '[]'::json) AS legs,
           CASE WHEN b.groups_on THEN COALESCE((
             SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) ORDER BY lower(g.name), g.id)
               FROM registration_groups rg JOIN groups g ON g.id = rg.group_id
              WHERE rg.registration_id = b.reg_id AND g.event_id = ${eventId}), '[]'::json)
           ELSE '[]'::json END AS groups,
           ${sql.raw(isoSqlText('b.primary_ts'))} AS primary_at,
           to_char(b.primary_ts AT TIME ZONE b.timezone, 'YYYY-MM-DD') AS agenda_date
      FROM base b
     ORDER BY b.primary_ts NULLS LAST, b.first_name, b.last_name, b.id`);
  return res.rows;
}
