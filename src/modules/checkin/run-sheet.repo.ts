/**
 * Rows of a travel pickup's run sheet (docs/checkin.md "Pickup run sheet"): the inbound journeys of
 * the event's `complete` registrations expected on one date of the event's time zone (by the final
 * leg's live arrival, else its scheduled arrival, else the journey's `arrival_time`, else its
 * `expected_arrival_time`), with what the pickup team needs: where (the final leg's arrival airport,
 * else the mode's arrival station or place), the flight and its live status, and whether the
 * traveller was collected at this context, arrived otherwise, or needs no pickup. The traveller's
 * phone is read only for callers who may read personal data (`pii`); the car journey's origin
 * address is never read. Every query carries the event id.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { LiveStatus } from '../../integrations/flights/provider.js';
import { isoSqlText } from '../../lib/time.js';

export type RunSheetRow = {
  travel_id: number;
  registration_id: number;
  name: string;
  /** null unless the caller may read personal data. */
  phone: string | null;
  mode: string;
  is_unaccompanied_minor: boolean;
  flight_code: string | null;
  flight_number: string | null;
  from_airport: string | null;
  arrival_airport: string | null;
  /** The mode's arrival station or place (train, bus, other), for journeys without an airport. */
  arrival_place: string | null;
  scheduled_at: string | null;
  live_status: LiveStatus | null;
  live_arrival_at: string | null;
  /** First entry scan in this context (ISO 8601 UTC), or null. */
  collected_at: string | null;
  /** The final leg is marked picked up (by a scan elsewhere) or a check-in context scanned them. */
  arrived: boolean;
  dismissed: boolean;
};

const ISO = (col: string) => sql.raw(isoSqlText(col));

export async function runSheetRows(
  db: Tx,
  q: { eventId: number; contextId: number; date: string; pii: boolean },
): Promise<RunSheetRow[]> {
  const expected = sql.raw(
    'COALESCE(l.live_arrival_time, l.arrival_time, t.arrival_time, t.expected_arrival_time)',
  );
  const res = await db.execute<RunSheetRow>(sql`
    SELECT t.id AS travel_id, r.id AS registration_id, t.mode,
           btrim(COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name) || ' ' || p.legal_last_name) AS name,
           CASE WHEN ${q.pii} THEN p.phone END AS phone, t.is_unaccompanied_minor,
           l.flight_code, t.flight_number, l.departure_airport AS from_airport, l.arrival_airport,
           COALESCE(NULLIF(btrim(CASE t.mode WHEN 'train' THEN t.train_arrival_station
                                             WHEN 'bus' THEN t.bus_arrival_location END), ''),
                    NULLIF(btrim(t.arrival_station), ''), NULLIF(btrim(t.arrival_city), '')) AS arrival_place,
           ${ISO('COALESCE(l.arrival_time, t.arrival_time, t.expected_arrival_time)')} AS scheduled_at,
           l.live_status, ${ISO('l.live_arrival_time')} AS live_arrival_at,
           ${ISO('here.at')} AS collected_at,
           (l.travel_picked_up_at IS NOT NULL OR EXISTS (
              SELECT 1 FROM scans s JOIN scan_contexts sc ON sc.id = s.scan_context_id AND sc.checks_in
               WHERE s.registration_id = r.id AND s.event_id = ${q.eventId})) AS arrived,
           t.pickup_dismissed_at IS NOT NULL AS dismissed
      FROM registrations r
      JOIN events e ON e.id = r.event_id
      JOIN people p ON p.id = r.person_id
      JOIN travels t ON t.registration_id = r.id AND t.direction = 'inbound'
      LEFT JOIN LATERAL (SELECT x.* FROM travel_legs x WHERE x.travel_id = t.id
                          ORDER BY x.position DESC, x.id DESC LIMIT 1) l ON true
      LEFT JOIN LATERAL (SELECT min(s.scanned_at) AS at FROM scans s
                          WHERE s.registration_id = r.id AND s.scan_context_id = ${q.contextId}
                            AND s.type = 'entry') here ON true
     WHERE r.event_id = ${q.eventId} AND r.status = 'complete'
       AND to_char(${expected} AT TIME ZONE e.timezone, 'YYYY-MM-DD') = ${q.date}
     ORDER BY t.is_unaccompanied_minor DESC, ${expected}, lower(p.legal_last_name), t.id`);
  return res.rows;
}
