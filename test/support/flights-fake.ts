/**
 * A real local HTTP server speaking AeroDataBox's flight-by-number API
 * (`GET /flights/number/{number}/{date}`, docs/travel.md "Providers"), for tests: answers the sectors
 * set with `setFlight` (200, a JSON array), 404 for a flight it does not know on that date, and can
 * fail the next N requests with a status (503, 429, …). Records every request (path and headers).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AdbEndFake {
  airport: { iata: string; icao?: string };
  scheduledTime: { utc: string };
  revisedTime?: { utc: string };
  runwayTime?: { utc: string };
  predictedTime?: { utc: string };
}

export interface AdbFlightFake {
  number: string;
  status: string;
  airline: { name: string; iata: string };
  departure: AdbEndFake;
  arrival: AdbEndFake;
}

export interface FakeFlights {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Sets (replaces) what the API answers for `code` (as sent, e.g. `BA117`) on `date`. */
  setFlight(code: string, date: string, sectors: AdbFlightFake[]): void;
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

/** `2026-11-27T10:05:00.000Z` → `2026-11-27 10:05Z` (the provider's own time format). */
export const adbUtc = (iso: string) => ({ utc: `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z` });

export async function startFakeFlights(): Promise<FakeFlights> {
  const flights = new Map<string, AdbFlightFake[]>();
  let failures = 0;
  let failStatus = 503;
  const requests: FakeFlights['requests'] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    requests.push({ path, headers: req.headers });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (failures > 0) {
      failures--;
      return send(failStatus, { message: 'Service unavailable' });
    }
    const m = /^\/flights\/number\/([^/]+)\/(\d{4}-\d{2}-\d{2})$/.exec(path);
    if (req.method !== 'GET' || !m) return send(400, { message: 'Bad request' });
    const sectors = flights.get(`${decodeURIComponent(m[1]!)}|${m[2]}`);
    if (!sectors) return send(404, { message: 'Flights are not found' });
    return send(200, sectors);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setFlight(code, date, sectors) {
      flights.set(`${code}|${date}`, sectors);
    },
    failNext(n, status = 503) {
      failures = n;
      failStatus = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A sector as the provider shows it: scheduled times plus optional live ones. */
export function sector(opts: {
  code: string;
  from: string;
  to: string;
  dep: string;
  arr: string;
  status?: string;
  revisedDep?: string;
  revisedArr?: string;
}): AdbFlightFake {
  return {
    number: `${opts.code.slice(0, 2)} ${opts.code.slice(2)}`,
    status: opts.status ?? 'Expected',
    airline: {
      name: opts.code.startsWith('BA') ? 'British Airways' : 'Test Air',
      iata: opts.code.slice(0, 2),
    },
    departure: {
      airport: { iata: opts.from },
      scheduledTime: adbUtc(opts.dep),
      ...(opts.revisedDep ? { revisedTime: adbUtc(opts.revisedDep) } : {}),
    },
    arrival: {
      airport: { iata: opts.to },
      scheduledTime: adbUtc(opts.arr),
      ...(opts.revisedArr ? { revisedTime: adbUtc(opts.revisedArr) } : {}),
    },
  };
}
