/**
 * GET /events/{e}/travel (docs/decisions.md "Travel calendar"): the event's travel calendar over `complete`
 * registrations, in the camelCase shape the mobile app reads. The rules (also in the route's
 * OpenAPI description and the README):
 *
 * - `route`: plane → the legs' airports in order (`BOS → DUB → LHR`); train → departure and arrival
 *   stations; bus → departure and arrival locations; car → `origin_address`, or `Address hidden`
 *   for callers without PII rights (`limited`/`read_only`-only users and every API key);
 *   other → stations. Any mode without its own fields falls back to departure → arrival city.
 *   Parts are joined with ` → `; nothing known → null.
 * - `reference`: plane → the legs' flight codes (`TA100, TA200`), else `flight_number`; other modes
 *   → `flight_number` (the train/bus service number).
 * - `details`: `other_details`.
 * - `pickupState` (docs/decisions.md "Travel calendar"): outbound → null (nobody is picked up on the way home); inbound →
 *   `collected` (final leg has `travel_picked_up_at`), else `checked_in` (a scan in a check-in
 *   context), else `pickup_not_needed` (`pickup_dismissed_at` set), else `awaiting_pickup`.
 * - `groups`: the registration's groups `{id, name, color}` by name; `[]` when the event's groups
 *   module is off.
 */
import type { Visibility } from '../../access/policy.js';
import type { EventCtx } from '../../deps.js';
import { type TravelRow, travelRows } from './travel.repo.js';
import {
  ADDRESS_HIDDEN,
  type PickupState,
  type TravelCalendarJson,
  type TravelCountsJson,
  type TravelEntryJson,
} from './travel.schemas.js';

const ARROW = ' → ';

function joinRoute(parts: readonly (string | null)[]): string | null {
  const kept: string[] = [];
  for (const part of parts) {
    const value = part?.trim();
    if (value && kept[kept.length - 1] !== value) kept.push(value);
  }
  return kept.length > 0 ? kept.join(ARROW) : null;
}

function routeOf(row: TravelRow, v: Visibility): string | null {
  const cities = joinRoute([row.departure_city, row.arrival_city]);
  switch (row.mode) {
    case 'plane': {
      const airports = row.legs.length > 0 ? [row.legs[0]!.from, ...row.legs.map((l) => l.to)] : [];
      return joinRoute(airports) ?? cities;
    }
    case 'train':
      return (
        joinRoute([
          row.train_departure_station ?? row.departure_station,
          row.train_arrival_station ?? row.arrival_station,
        ]) ?? cities
      );
    case 'bus':
      return (
        joinRoute([row.bus_departure_location, row.bus_arrival_location]) ??
        joinRoute([row.departure_station, row.arrival_station]) ??
        cities
      );
    case 'car':
      if (!v.pii) return ADDRESS_HIDDEN;
      return joinRoute([row.origin_address]) ?? cities;
    default:
      return joinRoute([row.departure_station, row.arrival_station]) ?? cities;
  }
}

function referenceOf(row: TravelRow): string | null {
  if (row.mode === 'plane') {
    const codes = [...new Set(row.legs.map((l) => l.code?.trim()).filter((c): c is string => !!c))];
    if (codes.length > 0) return codes.join(', ');
  }
  return row.flight_number?.trim() || null;
}

function pickupStateOf(row: TravelRow): PickupState | null {
  if (row.direction === 'outbound') return null;
  if (row.collected) return 'collected';
  if (row.checked_in) return 'checked_in';
  if (row.dismissed) return 'pickup_not_needed';
  return 'awaiting_pickup';
}

/** One calendar entry; field visibility (the car route) follows `v`. */
export function travelEntry(row: TravelRow, v: Visibility): TravelEntryJson {
  return {
    id: row.id,
    participantId: row.person_id,
    participantEventId: row.registration_id,
    participantName: `${row.first_name} ${row.last_name}`.trim(),
    participantPreferredName: row.preferred_name,
    direction: row.direction,
    mode: row.mode,
    primaryTimeAt: row.primary_at,
    agendaDate: row.agenda_date,
    route: routeOf(row, v),
    reference: referenceOf(row),
    details: row.other_details,
    pickupState: pickupStateOf(row),
    isUnaccompaniedMinor: row.is_unaccompanied_minor,
    groups: row.groups,
  };
}

function countsOf(entries: readonly TravelEntryJson[]): TravelCountsJson {
  const count = (test: (e: TravelEntryJson) => boolean) => entries.filter(test).length;
  return {
    total: entries.length,
    inbound: count((e) => e.direction === 'inbound'),
    outbound: count((e) => e.direction === 'outbound'),
    scheduled: count((e) => e.primaryTimeAt !== null),
    unscheduled: count((e) => e.primaryTimeAt === null),
    awaitingPickup: count((e) => e.pickupState === 'awaiting_pickup'),
    collected: count((e) => e.pickupState === 'collected'),
    checkedIn: count((e) => e.pickupState === 'checked_in'),
    pickupNotNeeded: count((e) => e.pickupState === 'pickup_not_needed'),
  };
}

/**
 * The calendar of the authorised event: `{eventTimezone, dates, entries, counts}`. Entries are
 * ordered by primaryTimeAt (unscheduled last), then participant name, then travel id.
 */
export async function travelCalendar(ctx: EventCtx): Promise<TravelCalendarJson> {
  const event = ctx.access.event;
  const rows = await travelRows(ctx.db, event.id);
  const entries = rows.map((row) => travelEntry(row, ctx.access.visibility));
  const dates = [...new Set(entries.map((e) => e.agendaDate).filter((d): d is string => d !== null))].sort();
  return { eventTimezone: event.timezone, dates, entries, counts: countsOf(entries) };
}
