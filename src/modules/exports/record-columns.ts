/**
 * The longer column groups of the exports (rooming, personal details, safeguarding, travel legs),
 * in the terms of columns.ts. Travel columns read the travels `t` and travel_legs `l` aliases.
 */
import { AGE, b, type Column, DATE_OF_BIRTH, LONG, MINOR, NAME, PHONE, pii, s } from './columns.js';

export const ROOMING: Column[] = [
  b('gender_identity', 'Gender identity', `COALESCE(acc.gender_identity_other, acc.gender_identity)`),
  b('check_in_date', 'Arrives', 'acc.check_in_date', 'date'),
  b('check_out_date', 'Leaves', 'acc.check_out_date', 'date'),
  b('venue_name', 'Venue', 'acc.venue_name'),
  b('assigned_room', 'Room', 'acc.assigned_room'),
  b('rooming_exempt', 'Not in rooming', 'COALESCE(acc.rooming_exempt, false)', 'bool'),
  b('room_type_preference', 'Room type wanted', 'acc.room_type_preference'),
  b('quiet_room_preference', 'Quiet room wanted', 'acc.quiet_room_preference'),
  b('preferred_roommate_genders', 'Roommate genders wanted', 'acc.preferred_roommate_genders'),
  b('roommate_preferences', 'Roommates wanted', 'acc.roommate_preferences', 'text', LONG),
  b('roommate_exclusions', 'Roommates to avoid', 'acc.roommate_exclusions', 'text', LONG),
  b('accessibility_needs', 'Accessibility needs', 'acc.accessibility_needs', 'text', LONG),
  b('accommodation_notes', 'Accommodation notes', 'acc.notes', 'text', LONG),
];

export const AGE_COLUMN = b('age', 'Age', AGE, 'int');

export const PERSONAL: Column[] = [
  b('pronouns', 'Pronouns', 'p.pronouns'),
  PHONE,
  DATE_OF_BIRTH,
  AGE_COLUMN,
  MINOR,
  pii(
    'address',
    'Address',
    `(SELECT string_agg(a.value, ', ' ORDER BY a.key) FROM jsonb_each_text(p.address) a WHERE btrim(a.value) <> '')`,
    'text',
    LONG,
  ),
  b('tshirt_size', 'T-shirt size', 'r.tshirt_size'),
];

export const SAFEGUARDING: Column[] = [
  b('high_support_flag', 'High support', 'COALESCE(sg.high_support_flag, false)', 'bool'),
  b(
    'can_leave_unaccompanied',
    'May leave unaccompanied',
    'COALESCE(sg.can_leave_unaccompanied, false)',
    'bool',
  ),
  s('high_support_notes', 'High support notes', 'sg.high_support_notes', 'text', LONG),
  s('authorized_pickup_adults', 'Authorised pickup adults', 'sg.authorized_pickup_adults', 'text', LONG),
  s('safeguarding_instructions', 'Safeguarding instructions', 'sg.other_instructions', 'text', LONG),
];

/** Travel calendar pickup state (docs/decisions.md "Travel calendar"), per travel record: inbound only. */
const PICKUP_STATE = `CASE WHEN t.direction <> 'inbound' THEN NULL
  WHEN (SELECT ll.travel_picked_up_at FROM travel_legs ll WHERE ll.travel_id = t.id ORDER BY ll.position DESC, ll.id DESC LIMIT 1) IS NOT NULL THEN 'collected'
  WHEN ci.at IS NOT NULL THEN 'checked_in'
  WHEN t.pickup_dismissed_at IS NOT NULL THEN 'pickup_not_needed'
  ELSE 'awaiting_pickup' END`;

export const TRAVEL: Column[] = [
  ...NAME,
  b('direction', 'Direction', 't.direction', 'text', 10),
  b('mode', 'Mode', 't.mode', 'text', 8),
  b('carrier', 'Carrier', 't.carrier'),
  b('leg', 'Leg', 'l.position', 'int', 6),
  b('flight_code', 'Flight', 'COALESCE(l.flight_code, t.flight_number)', 'text', 10),
  b(
    'departure',
    'From',
    `COALESCE(l.departure_airport, t.departure_city, t.train_departure_station, t.departure_station, t.bus_departure_location)`,
  ),
  b(
    'arrival',
    'To',
    `COALESCE(l.arrival_airport, t.arrival_city, t.train_arrival_station, t.arrival_station, t.bus_arrival_location)`,
  ),
  b('departure_time', 'Departs', 'COALESCE(l.departure_time, t.departure_time)', 'datetime'),
  b('arrival_time', 'Arrives', 'COALESCE(l.live_arrival_time, l.arrival_time, t.arrival_time)', 'datetime'),
  b('live_status', 'Flight status', 'l.live_status', 'text', 12),
  b('unaccompanied_minor', 'Unaccompanied minor', 'COALESCE(t.is_unaccompanied_minor, false)', 'bool'),
  b('picked_up_at', 'Picked up at', 'l.travel_picked_up_at', 'datetime'),
  b('pickup_state', 'Pickup', PICKUP_STATE, 'text', 18),
  pii('origin_address', 'Travelling from (address)', 't.origin_address', 'text', LONG),
  b('travel_notes', 'Travel notes', 't.notes', 'text', LONG),
];
