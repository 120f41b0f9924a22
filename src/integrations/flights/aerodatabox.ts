/**
 * AeroDataBox adapter (docs/travel.md "Providers"): `GET {url}/flights/number/{number}/{date}`
 * with `dateLocalRole=Departure` (the date is local to the departure airport), authenticated by the
 * RapidAPI headers `X-RapidAPI-Key` / `X-RapidAPI-Host`. The answer is an array of sectors:
 * `{number, status, airline:{name,iata}, departure/arrival:{airport:{iata}, scheduledTime:{utc},
 * revisedTime?, predictedTime?, runwayTime?}}` with times like `2026-11-27 10:05Z`. 204 or 404 =
 * no such flight on that date. The key is never logged or put in an error message.
 */
import type { FlightsConfig } from '../../lib/flights-config.js';
import { errorName } from '../../lib/narrow.js';
import {
  type FlightInfo,
  type FlightProvider,
  FlightProviderError,
  type FlightQuery,
  type LiveStatus,
} from './provider.js';

interface AdbTime {
  utc?: string;
}
interface AdbEnd {
  airport?: { iata?: string; icao?: string };
  scheduledTime?: AdbTime;
  revisedTime?: AdbTime;
  predictedTime?: AdbTime;
  runwayTime?: AdbTime;
}
interface AdbFlight {
  number?: string;
  status?: string;
  airline?: { name?: string; iata?: string };
  departure?: AdbEnd;
  arrival?: AdbEnd;
}

/** Minutes past the schedule from which a departure counts as delayed (the usual on-time limit). */
export const DELAY_THRESHOLD_MINUTES = 15;

/** `2026-11-27 10:05Z` / `2026-11-27T10:05:00Z` → ISO 8601 UTC with milliseconds; else null. */
export function adbTime(t: AdbTime | undefined): string | null {
  const raw = t?.utc?.trim();
  if (!raw) return null;
  const ms = Date.parse(raw.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const STATUS: Record<string, LiveStatus> = {
  expected: 'scheduled',
  checkin: 'scheduled',
  boarding: 'scheduled',
  gateclosed: 'scheduled',
  delayed: 'delayed',
  departed: 'departed',
  enroute: 'en_route',
  approaching: 'en_route',
  arrived: 'landed',
  canceled: 'cancelled',
  canceleduncertain: 'cancelled',
  diverted: 'diverted',
};

function liveStatus(
  raw: string | undefined,
  scheduled: string | null,
  live: string | null,
): LiveStatus | null {
  const status = STATUS[(raw ?? '').toLowerCase()] ?? null;
  if (status !== 'scheduled' || !scheduled || !live) return status;
  const late = Date.parse(live) - Date.parse(scheduled) >= DELAY_THRESHOLD_MINUTES * 60_000;
  return late ? 'delayed' : status;
}

/** One sector of the answer in Muster's terms. */
export function fromAdb(f: AdbFlight, fallbackCode: string): FlightInfo {
  const dep = f.departure ?? {};
  const arr = f.arrival ?? {};
  const departureTime = adbTime(dep.scheduledTime);
  const liveDeparture = adbTime(dep.revisedTime) ?? adbTime(dep.runwayTime) ?? adbTime(dep.predictedTime);
  return {
    flightCode: (f.number ?? fallbackCode).replace(/\s+/g, '').toUpperCase(),
    carrier: f.airline?.name ?? f.airline?.iata ?? null,
    departureAirport: dep.airport?.iata?.toUpperCase() ?? null,
    arrivalAirport: arr.airport?.iata?.toUpperCase() ?? null,
    departureTime,
    arrivalTime: adbTime(arr.scheduledTime),
    status: liveStatus(f.status, departureTime, liveDeparture),
    liveDepartureTime: liveDeparture,
    liveArrivalTime: adbTime(arr.revisedTime) ?? adbTime(arr.runwayTime) ?? adbTime(arr.predictedTime),
  };
}

export function aeroDataBox(config: FlightsConfig): FlightProvider {
  const host = new URL(config.url).host;
  return {
    name: 'aerodatabox',
    async lookup(query: FlightQuery): Promise<FlightInfo[]> {
      const url = `${config.url}/flights/number/${encodeURIComponent(query.flight.code)}/${query.date}?dateLocalRole=Departure&withAircraftImage=false&withLocation=false`;
      let response: Response;
      try {
        response = await fetch(url, {
          headers: {
            accept: 'application/json',
            'x-rapidapi-key': config.apiKey ?? '',
            'x-rapidapi-host': host,
          },
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        throw new FlightProviderError('unavailable', `flight provider unreachable: ${errorName(error)}`);
      }
      const text = await response.text().catch(() => '');
      if (response.status === 204 || response.status === 404) return [];
      if (response.status === 429)
        throw new FlightProviderError('rate_limited', 'flight provider rate limit (429)');
      if (response.status >= 500)
        throw new FlightProviderError('unavailable', `flight provider answered ${response.status}`);
      if (!response.ok)
        throw new FlightProviderError('refused', `flight provider refused the request (${response.status})`);
      let body: unknown;
      try {
        body = text === '' ? [] : JSON.parse(text);
      } catch {
        throw new FlightProviderError('unavailable', 'flight provider sent malformed JSON');
      }
      if (!Array.isArray(body))
        throw new FlightProviderError('unavailable', 'flight provider sent an unexpected answer');
      return body
        .filter((f): f is AdbFlight => typeof f === 'object' && f !== null)
        .map((f) => fromAdb(f, query.flight.code));
    },
  };
}
