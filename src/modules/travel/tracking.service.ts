/**
 * The live tracking job `flight-track` (docs/travel.md "Live tracking"), run every
 * MUSTER_FLIGHTS_POLL_MINUTES by the worker: polls the provider for the legs due (tracking.repo.ts
 * dueLegs), one call per flight and departure date however many travellers are on it, within the
 * call budget and outside an error pause (tracking.budget.ts). Each leg's answer updates its live
 * fields when they change (which bumps the registration's `updated_at`) and its last tracked time.
 * When the last leg of an inbound journey lands, one push to the event's staff devices and one
 * `flight_landed` entry in the live scan feed, in the same transaction, exactly once per landing.
 */
import type { Deps } from '../../deps.js';
import { flightProvider } from '../../integrations/flights/index.js';
import {
  type FlightInfo,
  type FlightProvider,
  FlightProviderError,
  LANDED_STATUSES,
  pickSector,
} from '../../integrations/flights/provider.js';
import { enqueueStaffPush } from '../push/push.service.js';
import { airportByIata } from './airports.data.js';
import { parseFlightCode } from './flight-code.js';
import {
  backoffUntil,
  clearBackoff,
  pruneUsage,
  recordProviderError,
  reserveCall,
} from './tracking.budget.js';
import {
  appendLandingFeed,
  claimLanding,
  type DueLeg,
  dueLegs,
  type LiveFields,
  markTracked,
  writeLive,
} from './tracking.repo.js';

/** Legs looked at per run; the rest wait for the next run (least recently tracked first). */
const LEGS_PER_RUN = 500;

export interface TrackResult {
  calls: number;
  changed: number;
  landed: number;
  /** Why the run stopped early: a budget used up, or a provider error pause. */
  stopped: 'hour' | 'day' | 'paused' | 'provider_error' | null;
}

/** `YYYY-MM-DD` of `iso` in the departure airport's zone (UTC when the airport is unknown). */
async function localDate(iso: string, airport: string | null): Promise<string> {
  const zone = (airport && (await airportByIata(airport))?.time_zone) || 'UTC';
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso));
}

export async function trackFlights(
  deps: Deps,
  opts: { now?: Date; provider?: FlightProvider | null } = {},
): Promise<TrackResult> {
  const now = opts.now ?? new Date();
  const provider = opts.provider === undefined ? flightProvider(deps.config.flights) : opts.provider;
  const result: TrackResult = { calls: 0, changed: 0, landed: 0, stopped: null };
  if (!provider) return result;
  await pruneUsage(deps.db, now);
  if (await backoffUntil(deps.db, now)) return { ...result, stopped: 'paused' };
  const legs = await dueLegs(deps.db, now, deps.config.flights.pollMinutes, LEGS_PER_RUN);
  const groups = new Map<string, DueLeg[]>();
  for (const leg of legs) {
    const key = `${leg.flight_code}|${await localDate(leg.departure_time, leg.departure_airport)}`;
    groups.set(key, [...(groups.get(key) ?? []), leg]);
  }
  for (const [key, group] of groups) {
    const flight = parseFlightCode(group[0]!.flight_code);
    if (!flight) {
      for (const leg of group) await deps.db.transaction((tx) => markTracked(tx, leg.id, now, 'unknown'));
      continue;
    }
    const spent = await reserveCall(deps.db, deps.config.flights, now);
    if (spent) {
      deps.log.warn(
        {
          budget: spent,
          limit: spent === 'hour' ? deps.config.flights.budgetPerHour : deps.config.flights.budgetPerDay,
        },
        `flight tracking: the ${spent === 'hour' ? 'hourly' : 'daily'} provider call budget is used up; legs wait for the next ${spent}`,
      );
      return { ...result, stopped: spent };
    }
    result.calls++;
    const first = group[0]!;
    let infos: FlightInfo[];
    try {
      infos = await provider.lookup({
        flight,
        date: key.split('|')[1]!,
        departureAirport: first.departure_airport,
        scheduledDeparture: first.departure_time,
        scheduledArrival: first.arrival_time,
      });
    } catch (error) {
      if (!(error instanceof FlightProviderError)) throw error;
      const until = await recordProviderError(deps.db, now);
      deps.log.warn(
        { provider: provider.name, kind: error.kind, until: until.toISOString() },
        'flight tracking paused after a provider error',
      );
      return { ...result, stopped: 'provider_error' };
    }
    await clearBackoff(deps.db);
    for (const leg of group) {
      const outcome = await applyAnswer(deps, leg, pickSector(infos, leg.departure_airport), now);
      if (outcome.changed) result.changed++;
      if (outcome.landed) result.landed++;
    }
  }
  return result;
}

/** One leg's answer in one transaction: live fields, last tracked time, and the landing once. */
async function applyAnswer(deps: Deps, leg: DueLeg, info: FlightInfo | undefined, now: Date) {
  return deps.db.transaction(async (tx) => {
    if (!info || info.status === null) {
      await markTracked(tx, leg.id, now, info ? 'ok' : 'unknown');
      return { changed: false, landed: false };
    }
    const live: LiveFields = {
      status: info.status,
      departure: info.liveDepartureTime,
      arrival: info.liveArrivalTime,
    };
    const changed = await writeLive(tx, leg.id, live);
    await markTracked(tx, leg.id, now, 'ok');
    const journeyLanded = leg.direction === 'inbound' && leg.is_last && LANDED_STATUSES.has(info.status);
    if (!journeyLanded || !(await claimLanding(tx, leg.id, now))) return { changed, landed: false };
    const landedAt = info.liveArrivalTime ?? now.toISOString();
    const ids = { travel_id: leg.travel_id, leg_id: leg.id, participant_event_id: leg.registration_id };
    await enqueueStaffPush(deps, tx, {
      eventId: leg.event_id,
      kind: 'flight_landed',
      title: 'Flight landed',
      body: `${leg.flight_code} has landed${leg.arrival_airport ? ` at ${leg.arrival_airport}` : ''}.`,
      data: { ...ids, flight_code: leg.flight_code },
    });
    await appendLandingFeed(tx, leg.event_id, {
      type: 'flight_landed',
      event_id: leg.event_id,
      ...ids,
      flight_code: leg.flight_code,
      arrival_airport: leg.arrival_airport,
      landed_at: landedAt,
    });
    return { changed, landed: true };
  });
}
