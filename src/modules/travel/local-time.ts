/**
 * Times shown in a place's own time zone (docs/travel.md "Times"): the arrivals board, the pickup
 * run sheet and the travel forms show a leg's departure in its departure airport's zone and its
 * arrival in its arrival airport's zone, 24-hour, with the zone named by its short name as
 * `Intl` gives it in British English ("14:05 BST", "09:30 GMT-4" where the zone has no common
 * abbreviation). Stations and places without zone data use the event's zone.
 */
import { airportByIata } from './airports.data.js';

const CLOCKS = new Map<string, Intl.DateTimeFormat>();
const DATED = new Map<string, Intl.DateTimeFormat>();

function formatter(cache: Map<string, Intl.DateTimeFormat>, zone: string, dated: boolean) {
  let f = cache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      ...(dated ? { weekday: 'short', day: 'numeric', month: 'short' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    cache.set(zone, f);
  }
  return f;
}

/** "14:05 BST": the instant `iso` (ISO 8601) on the wall clock of IANA `zone`; '' for null. */
export function localTime(iso: string | null, zone: string): string {
  return iso ? formatter(CLOCKS, zone, false).format(new Date(iso)) : '';
}

/** "Thu 9 Jul, 14:05 BST": as localTime, with the local date (for times a form shows on their own). */
export function localDateTime(iso: string | null, zone: string): string {
  return iso ? formatter(DATED, zone, true).format(new Date(iso)) : '';
}

/** The IANA zone of an airport by IATA code (any case); `fallback` when unknown or without a zone. */
export async function airportZone(iata: string | null | undefined, fallback: string): Promise<string> {
  const code = iata?.trim().toUpperCase();
  if (!code || !/^[A-Z]{3}$/.test(code)) return fallback;
  return (await airportByIata(code))?.time_zone ?? fallback;
}

/**
 * A leg's times on its airports' clocks: `departure_local` in the departure airport's zone and
 * `arrival_local` in the arrival airport's zone ("Wed 8 Jul, 16:00 EDT"); null when the time or
 * the airport's zone is unknown (an unknown code is never guessed into some other zone).
 */
export async function legLocalTimes(leg: {
  departure_airport?: unknown;
  arrival_airport?: unknown;
  departure_time?: unknown;
  arrival_time?: unknown;
}): Promise<{ departure_local: string | null; arrival_local: string | null }> {
  const at = async (code: unknown, time: unknown) => {
    if (typeof code !== 'string' || typeof time !== 'string' || !time) return null;
    const zone = await airportZone(code, '');
    return zone ? localDateTime(time, zone) : null;
  };
  return {
    departure_local: await at(leg.departure_airport, leg.departure_time),
    arrival_local: await at(leg.arrival_airport, leg.arrival_time),
  };
}
