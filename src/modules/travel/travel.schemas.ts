/**
 * Wire shapes of the travel calendar (docs/decisions.md "Travel calendar"). The one camelCase body of the API: the
 * mobile app reads it as is.
 */
import { type Static, Type } from 'typebox';
import { DateOnly, DateTime, Nullable } from '../../http/schema-helpers.js';

/** Inbound entries only; outbound entries carry `null` (docs/decisions.md "Travel calendar"). */
export const PICKUP_STATES = ['awaiting_pickup', 'collected', 'checked_in', 'pickup_not_needed'] as const;
export type PickupState = (typeof PICKUP_STATES)[number];

/** What a caller without PII rights reads as the route of a car journey (docs/decisions.md "Travel calendar"). */
export const ADDRESS_HIDDEN = 'Address hidden';

export const TravelGroup = Type.Object({
  id: Type.Integer({ description: 'Group id' }),
  name: Type.String(),
  color: Nullable(Type.String({ description: 'Display colour, e.g. `#EC3750`' })),
});

export const TravelEntry = Type.Object({
  id: Type.Integer({ description: 'Travel record id' }),
  participantId: Type.Integer({ description: 'Person id' }),
  participantEventId: Type.Integer({ description: 'Registration id' }),
  participantName: Type.String({ description: 'Legal first and last name' }),
  participantPreferredName: Nullable(Type.String()),
  direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]),
  mode: Type.String({ description: 'plane | train | car | bus | other' }),
  primaryTimeAt: Nullable(DateTime),
  agendaDate: Nullable(DateOnly),
  route: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  details: Nullable(Type.String()),
  pickupState: Nullable(
    Type.Union(
      [
        Type.Literal('awaiting_pickup'),
        Type.Literal('collected'),
        Type.Literal('checked_in'),
        Type.Literal('pickup_not_needed'),
      ],
      {
        description: 'Inbound: awaiting_pickup | collected | checked_in | pickup_not_needed. Outbound: null.',
      },
    ),
  ),
  isUnaccompaniedMinor: Type.Boolean(),
  groups: Type.Array(TravelGroup, {
    description: 'The registration’s groups, by name; `[]` when the event’s groups module is off',
  }),
});
export type TravelEntryJson = Static<typeof TravelEntry>;

export const TravelCounts = Type.Object({
  total: Type.Integer({ description: 'Number of entries' }),
  inbound: Type.Integer(),
  outbound: Type.Integer(),
  scheduled: Type.Integer({ description: 'Entries with a primaryTimeAt' }),
  unscheduled: Type.Integer({ description: 'Entries without a primaryTimeAt' }),
  awaitingPickup: Type.Integer({ description: 'pickupState = awaiting_pickup' }),
  collected: Type.Integer({ description: 'pickupState = collected' }),
  checkedIn: Type.Integer({ description: 'pickupState = checked_in' }),
  pickupNotNeeded: Type.Integer({ description: 'pickupState = pickup_not_needed (inbound only)' }),
});
export type TravelCountsJson = Static<typeof TravelCounts>;

export const TravelCalendar = Type.Object({
  eventTimezone: Type.String({ description: 'IANA name of the event’s time zone' }),
  dates: Type.Array(DateOnly, { description: 'Sorted distinct agendaDate values (nulls left out)' }),
  entries: Type.Array(TravelEntry),
  counts: TravelCounts,
});
export type TravelCalendarJson = Static<typeof TravelCalendar>;
