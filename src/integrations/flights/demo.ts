/**
 * The `demo` provider (docs/travel.md "Providers"): a deterministic timetable, no network. Any
 * well-formed flight number exists on any date except numbers 9000–9999 (an "unknown flight" to try
 * the error path). A leg whose own schedule is known keeps it; otherwise the schedule comes from a
 * hash of code and date. The same hash picks a delay (none, 10, 20, 45 or 90 minutes), and about one
 * flight in 17 is cancelled and one in 19 diverted, so the demo event's flights move through
 * scheduled → delayed → departed → en_route → landed → arrived as the clock passes.
 */
import type { FlightInfo, FlightProvider, FlightQuery, LiveStatus } from './provider.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

const AIRLINES: Readonly<Record<string, string>> = {
  AA: 'American Airlines',
  AF: 'Air France',
  BA: 'British Airways',
  DL: 'Delta Air Lines',
  EI: 'Aer Lingus',
  IB: 'Iberia',
  KL: 'KLM',
  LH: 'Lufthansa',
  UA: 'United Airlines',
  U2: 'easyJet',
  FR: 'Ryanair',
};
const AIRPORTS = ['LHR', 'LGW', 'DUB', 'EDI', 'CDG', 'AMS', 'FRA', 'MAD', 'JFK', 'BOS'];
const DELAYS = [0, 0, 0, 20, 0, 45, 0, 10, 90, 0];

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const iso = (ms: number) => new Date(ms).toISOString();

function statusAt(now: number, h: number, dep: number, arr: number, delay: number) {
  const liveDep = dep + delay * MIN;
  const liveArr = arr + delay * MIN;
  const known = now >= dep - 4 * HOUR; // estimates appear four hours before departure
  if (h % 17 === 0 && now >= dep - 6 * HOUR)
    return { status: 'cancelled' as const, liveDep: null, liveArr: null };
  if (now < liveDep) {
    if (!known) return { status: 'scheduled' as const, liveDep: null, liveArr: null };
    return { status: delay >= 15 ? ('delayed' as const) : ('scheduled' as const), liveDep, liveArr };
  }
  if (h % 19 === 0 && now >= (liveDep + liveArr) / 2)
    return { status: 'diverted' as const, liveDep, liveArr: null };
  let status: LiveStatus = 'arrived';
  if (now < liveDep + 20 * MIN) status = 'departed';
  else if (now < liveArr) status = 'en_route';
  else if (now < liveArr + 20 * MIN) status = 'landed';
  return { status, liveDep, liveArr };
}

export function demoProvider(clock: () => number = Date.now): FlightProvider {
  return {
    name: 'demo',
    async lookup(q: FlightQuery): Promise<FlightInfo[]> {
      const number = Number(q.flight.number);
      if (number >= 9000) return [];
      const h = hash(`${q.flight.code}|${q.date}`);
      const ownDep = q.scheduledDeparture ? Date.parse(q.scheduledDeparture) : Number.NaN;
      const ownArr = q.scheduledArrival ? Date.parse(q.scheduledArrival) : Number.NaN;
      const dep = Number.isNaN(ownDep)
        ? Date.parse(`${q.date}T00:00:00Z`) + (6 + (h % 14)) * HOUR + ((h >>> 4) % 4) * 15 * MIN
        : ownDep;
      const arr = Number.isNaN(ownArr) ? dep + (60 + ((h >>> 8) % 48) * 10) * MIN : ownArr;
      const from = q.departureAirport?.toUpperCase() || AIRPORTS[h % AIRPORTS.length]!;
      let to = AIRPORTS[(h >>> 12) % AIRPORTS.length]!;
      if (to === from) to = from === 'LHR' ? 'DUB' : 'LHR';
      const live = statusAt(clock(), h, dep, arr, DELAYS[(h >>> 16) % DELAYS.length]!);
      return [
        {
          flightCode: q.flight.code,
          carrier: AIRLINES[q.flight.airline] ?? q.flight.airline,
          departureAirport: from,
          arrivalAirport: to,
          departureTime: iso(dep),
          arrivalTime: iso(arr),
          status: live.status,
          liveDepartureTime: live.liveDep === null ? null : iso(live.liveDep),
          liveArrivalTime: live.liveArr === null ? null : iso(live.liveArr),
        },
      ];
    },
  };
}
