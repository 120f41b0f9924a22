/**
 * A travel pickup's run sheet (docs/checkin.md "Pickup run sheet"): one day's expected arrivals for
 * a pickup team, in three lists: still to collect, collected (here, or arrived otherwise), and no
 * pickup needed; unaccompanied minors first in each, then by expected time. Times are on the wall
 * clock of the place they happen (an airport's own zone; the event's zone for stations and places
 * without zone data), with the delay and the live flight status from tracking. Field visibility:
 * the traveller's phone only for callers who may read personal data; never the car journey's
 * origin address.
 */
import type { EventCtx } from '../../deps.js';
import type { LiveStatus } from '../../integrations/flights/provider.js';
import { airportByIata } from '../travel/airports.data.js';
import { localTime } from '../travel/local-time.js';
import { type RunSheetRow, runSheetRows } from './run-sheet.repo.js';

/** collected: scanned at this pickup; arrived: picked up elsewhere or checked in; not_needed: dismissed. */
export type PickupProgress = 'collected' | 'arrived' | 'not_needed' | 'missing';

export interface RunSheetEntry {
  travelId: number;
  registrationId: number;
  name: string;
  /** Callers who may read personal data only; else null. */
  phone: string | null;
  unaccompaniedMinor: boolean;
  mode: string;
  /** Flight code of the final leg, else the journey's service number. */
  reference: string | null;
  /** Where they arrive: "LHR · London Heathrow Airport", a station, a place, or "By car". */
  place: string;
  /** The origin airport of the final flight, when known. */
  from: string | null;
  /** "14:05 BST" in the place's zone; '' when unknown. */
  scheduledText: string;
  expectedText: string;
  delayMinutes: number | null;
  liveStatus: LiveStatus | null;
  progress: PickupProgress;
  /** "14:20 BST" when collected here; else ''. */
  collectedText: string;
}

export interface RunSheet {
  date: string;
  missing: RunSheetEntry[];
  collected: RunSheetEntry[];
  notNeeded: RunSheetEntry[];
}

function progressOf(row: RunSheetRow): PickupProgress {
  if (row.collected_at) return 'collected';
  if (row.arrived) return 'arrived';
  if (row.dismissed) return 'not_needed';
  return 'missing';
}

async function placeOf(row: RunSheetRow, eventZone: string): Promise<{ place: string; zone: string }> {
  const code = row.arrival_airport?.trim().toUpperCase();
  if (code) {
    const airport = /^[A-Z]{3}$/.test(code) ? await airportByIata(code) : undefined;
    return {
      place: airport ? `${code} · ${airport.name}` : code,
      zone: airport?.time_zone ?? eventZone,
    };
  }
  if (row.mode === 'car') return { place: 'By car', zone: eventZone };
  return { place: row.arrival_place ?? 'Not given', zone: eventZone };
}

async function entryOf(row: RunSheetRow, eventZone: string): Promise<RunSheetEntry> {
  const { place, zone } = await placeOf(row, eventZone);
  const expected = row.live_arrival_at ?? row.scheduled_at;
  return {
    travelId: row.travel_id,
    registrationId: row.registration_id,
    name: row.name,
    phone: row.phone,
    unaccompaniedMinor: row.is_unaccompanied_minor,
    mode: row.mode,
    reference: row.flight_code?.trim() || row.flight_number?.trim() || null,
    place,
    from: row.from_airport,
    scheduledText: localTime(row.scheduled_at, zone),
    expectedText: localTime(expected, zone),
    delayMinutes:
      row.live_arrival_at && row.scheduled_at
        ? Math.round((Date.parse(row.live_arrival_at) - Date.parse(row.scheduled_at)) / 60_000)
        : null,
    liveStatus: row.live_status,
    progress: progressOf(row),
    collectedText: localTime(row.collected_at, zone),
  };
}

/** The run sheet of pickup context `contextId` (a context of the caller's event) on `date` (YYYY-MM-DD, event zone). */
export async function runSheet(ctx: EventCtx, contextId: number, date: string): Promise<RunSheet> {
  const event = ctx.access.event;
  const rows = await runSheetRows(ctx.db, {
    eventId: event.id,
    contextId,
    date,
    pii: ctx.access.visibility.pii,
  });
  const entries = await Promise.all(rows.map((row) => entryOf(row, event.timezone)));
  return {
    date,
    missing: entries.filter((e) => e.progress === 'missing'),
    collected: entries.filter((e) => e.progress === 'collected' || e.progress === 'arrived'),
    notNeeded: entries.filter((e) => e.progress === 'not_needed'),
  };
}
