/**
 * The flight-data provider interface (docs/travel.md "Providers"): one question, "what does the
 * provider know about flight `code` departing on `date` (local date at the departure airport)?".
 * Flight checks (POST /travel/validate_flight) and the live tracking job ask it; adapters speak one
 * provider's HTTP API (aerodatabox.ts) or answer from a local timetable (demo.ts).
 */

/** Live status values of a leg (docs/travel.md "Live status"). */
export const LIVE_STATUSES = [
  'scheduled',
  'delayed',
  'departed',
  'en_route',
  'landed',
  'arrived',
  'cancelled',
  'diverted',
] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];

/** Statuses after which a leg is no longer polled. */
export const FINAL_STATUSES: ReadonlySet<LiveStatus> = new Set([
  'landed',
  'arrived',
  'cancelled',
  'diverted',
]);
/** Statuses that mean the aircraft is on the ground at its destination. */
export const LANDED_STATUSES: ReadonlySet<LiveStatus> = new Set(['landed', 'arrived']);

/** A normalised flight number: IATA airline designator + 1–4 digits (+ optional suffix), e.g. `BA117`. */
export interface FlightCode {
  airline: string;
  number: string;
  /** `BA117` */
  code: string;
}

/** What Muster knows about the leg being asked for; real providers use only `flight` and `date`. */
export interface FlightQuery {
  flight: FlightCode;
  /** Departure date, local to the departure airport, `YYYY-MM-DD`. */
  date: string;
  /** The leg's departure airport (IATA), used to pick one sector of a multi-sector flight number. */
  departureAirport?: string | null;
  /** The leg's own schedule (UTC ISO), when known: the demo provider follows it. */
  scheduledDeparture?: string | null;
  scheduledArrival?: string | null;
}

/** One sector of a flight as the provider reports it; times are ISO 8601 UTC. */
export interface FlightInfo {
  flightCode: string;
  /** Airline name (or its IATA code when the provider gives no name). */
  carrier: string | null;
  departureAirport: string | null;
  arrivalAirport: string | null;
  departureTime: string | null;
  arrivalTime: string | null;
  /** null when the provider has no status (e.g. a schedule far in the future). */
  status: LiveStatus | null;
  /** Latest estimate or actual; null when the provider has none. */
  liveDepartureTime: string | null;
  liveArrivalTime: string | null;
}

/**
 * The provider could not answer: `unavailable` (network, timeout, 5xx, malformed answer),
 * `rate_limited` (429), `refused` (our key or request was refused: 401/403/other 4xx).
 * An unknown flight is not an error: `lookup` returns [].
 */
export class FlightProviderError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'rate_limited' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

export interface FlightProvider {
  /** `source` of a flight check: the provider's name. */
  readonly name: string;
  /** The sectors of the flight on that date ([] when the provider knows no such flight). */
  lookup(query: FlightQuery): Promise<FlightInfo[]>;
}

/** The sector of `infos` departing from `airport` when given and present, else the first. */
export function pickSector(infos: readonly FlightInfo[], airport?: string | null): FlightInfo | undefined {
  const wanted = airport?.trim().toUpperCase();
  return (wanted && infos.find((i) => i.departureAirport === wanted)) || infos[0];
}
