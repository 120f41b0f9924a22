/**
 * The arrivals board (docs/travel.md "Arrivals board"): one date's plane arrivals and departures of
 * the event, grouped by airport (arrivals by arrival airport, departures by departure airport),
 * unaccompanied minors first in each airport, then by expected time. Times are shown in each
 * airport's own zone; the delay is expected minus scheduled, in minutes. Also what tracking is
 * doing (provider, budget, pause), so staff know whether "Scheduled" is fresh.
 */
import type { EventCtx } from '../../deps.js';
import type { LiveStatus } from '../../integrations/flights/provider.js';
import { airportByIata } from './airports.data.js';
import { type BoardRow, boardRows } from './board.repo.js';
import { localTime } from './local-time.js';
import { type TrackingState, trackingState } from './tracking.budget.js';
import type { PickupState } from './travel.schemas.js';

export interface BoardEntry {
  travelId: number;
  registrationId: number;
  name: string;
  unaccompaniedMinor: boolean;
  flightCode: string | null;
  /** The other end of the flight: origin for arrivals, destination for departures. */
  otherAirport: string | null;
  scheduled: string | null;
  expected: string | null;
  /** Local time texts in the airport's zone ("14:05"), '' when unknown. */
  scheduledText: string;
  expectedText: string;
  delayMinutes: number | null;
  status: LiveStatus | null;
  pickupState: PickupState | null;
}

export interface BoardAirport {
  code: string;
  name: string | null;
  timeZone: string;
  entries: BoardEntry[];
}

export interface Board {
  date: string;
  arrivals: BoardAirport[];
  departures: BoardAirport[];
  tracking: TrackingState;
}

function pickup(row: BoardRow): PickupState | null {
  if (row.direction === 'outbound') return null;
  if (row.collected) return 'collected';
  if (row.checked_in) return 'checked_in';
  if (row.dismissed) return 'pickup_not_needed';
  return 'awaiting_pickup';
}

async function group(rows: BoardRow[], inbound: boolean): Promise<BoardAirport[]> {
  const airports = new Map<string, BoardAirport>();
  for (const row of rows) {
    const code = (inbound ? row.arrival_airport : row.departure_airport)?.toUpperCase() || '—';
    let airport = airports.get(code);
    if (!airport) {
      const known = await airportByIata(code);
      airport = { code, name: known?.name ?? null, timeZone: known?.time_zone ?? 'UTC', entries: [] };
      airports.set(code, airport);
    }
    const scheduled = inbound ? row.arrival_time : row.departure_time;
    const live = inbound ? row.live_arrival_time : row.live_departure_time;
    const expected = live ?? scheduled;
    airport.entries.push({
      travelId: row.travel_id,
      registrationId: row.registration_id,
      name: `${row.preferred_name || row.first_name} ${row.last_name}`.trim(),
      unaccompaniedMinor: row.is_unaccompanied_minor,
      flightCode: row.flight_code,
      otherAirport: inbound ? row.departure_airport : row.arrival_airport,
      scheduled,
      expected,
      scheduledText: localTime(scheduled, airport.timeZone),
      expectedText: localTime(expected, airport.timeZone),
      delayMinutes:
        live && scheduled ? Math.round((Date.parse(live) - Date.parse(scheduled)) / 60_000) : null,
      status: row.live_status,
      pickupState: pickup(row),
    });
  }
  return [...airports.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/** The event's date today (its own time zone). */
export function eventToday(zone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export async function arrivalsBoard(ctx: EventCtx, date?: string): Promise<Board> {
  const event = ctx.access.event;
  const day = date ?? eventToday(event.timezone);
  const rows = await boardRows(ctx.db, event.id, day);
  const [arrivals, departures, tracking] = await Promise.all([
    group(
      rows.filter((r) => r.direction === 'inbound'),
      true,
    ),
    group(
      rows.filter((r) => r.direction === 'outbound'),
      false,
    ),
    trackingState(ctx.db, ctx.config.flights, new Date()),
  ]);
  return { date: day, arrivals, departures, tracking };
}
