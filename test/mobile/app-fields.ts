/**
 * Every response field the deployed mobile app reads (shared/design/mobile-app.md §3 and §7), as
 * field lists the app-session replay checks Muster's answers against: each listed key must be
 * present with its type (`?`: null allowed). Where the app's declarations and the contract differ
 * on purpose, the contract's type is listed (docs/decisions.md "Status codes and check order": integer ids, and guardian
 * permissions and accommodation preferences are strings, nullable, as in the spec).
 *
 * Keys the app declares optional and Muster does not send (absent is "unknown, allow" in the app):
 * `personal.secondary_email` (no such field in the spec or Muster's record), RemoteScan
 * `participant_id`, `scanned_by` and `scan_context` (Muster sends `scan_context_id` and `scanner`;
 * the app only caches scans), and ticket `apple_wallet_url`, `travel_inbound`, `messages`,
 * `can_download_*` (no wallet passes, excuse letters or ticket messages in Muster).
 */
import { expect } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: response JSON is read field by field, as the app reads it
export type Json = Record<string, any>;

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'iso' | 'date' | 'array' | 'object';
export type Fields = Record<string, Kind | `${Kind}?`>;

export const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function matches(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'integer':
      return Number.isInteger(value);
    case 'iso':
      return typeof value === 'string' && ISO_MICROS.test(value);
    case 'date':
      return typeof value === 'string' && DATE.test(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === kind;
  }
}

/** Each key of `fields` is present in `obj` with its kind (`kind?`: or null). */
export function expectFields(what: string, obj: Json, fields: Fields): void {
  expect(obj, what).toBeTypeOf('object');
  for (const [key, spec] of Object.entries(fields)) {
    const nullable = spec.endsWith('?');
    const kind = spec.replace('?', '') as Kind;
    expect(Object.hasOwn(obj, key), `${what}.${key} is missing`).toBe(true);
    const value = obj[key];
    const ok = (nullable && value === null) || matches(value, kind);
    expect(ok, `${what}.${key} should be ${spec}, is ${JSON.stringify(value)}`).toBe(true);
  }
}

/** §2.2, §3.1: `user` of POST /session and GET /me. */
export const ME: Fields = {
  id: 'integer',
  email: 'string',
  name: 'string',
  global_admin: 'boolean',
  is_organizer: 'boolean',
  is_participant: 'boolean',
};

/** §3.2: what the event list and every screen read of an event. */
const EVENT_BASE: Fields = {
  id: 'integer',
  name: 'string',
  slug: 'string',
  starts_at: 'iso?',
  ends_at: 'iso?',
  timezone: 'string',
  location_city: 'string?',
  logo_url: 'string?',
  banner_url: 'string?',
};

/** §3.2: a GET /events entry (role and access flags included). */
export const EVENT: Fields = {
  ...EVENT_BASE,
  role: 'string',
  can_view_participant_pii: 'boolean',
  can_view_participants: 'boolean',
  can_view_sensitive_data: 'boolean',
  travel_enabled: 'boolean',
};

/** §3.16: a ticket's event (the ticket screens also read the address and map position). */
export const TICKET_EVENT: Fields = {
  ...EVENT_BASE,
  location_address: 'string?',
  location_country: 'string?',
  location_latitude: 'number?',
  location_longitude: 'number?',
};

/** §3.16: a ticket. */
export const TICKET: Fields = {
  id: 'integer',
  participant_id: 'integer',
  status: 'string',
  display_status: 'string',
  confirmed: 'boolean',
  checked_in: 'boolean',
  attendee_name: 'string',
  qr_payload: 'string',
  short_code: 'string',
  onboarding_url: 'string',
  event: 'object',
};

/** §7: roster, search and detail base, for a caller who sees PII. */
export const PARTICIPANT: Fields = {
  participant_event_id: 'integer',
  participant_id: 'integer',
  display_name: 'string',
  full_name: 'string',
  email: 'string',
  status: 'string',
  phone: 'string?',
  pronouns: 'string?',
  headshot_url: 'string?',
  checked_in_at: 'iso?',
  has_anaphylaxis_risk: 'boolean',
  requires_refrigeration: 'boolean',
  cross_contamination_risk: 'boolean',
  high_support_flag: 'boolean',
  can_leave_unaccompanied: 'boolean',
  waiver_signed: 'boolean',
  scans_by_context: 'array',
  nfc_badge_token: 'string?',
  nfc_badge_assigned: 'boolean',
  slack_user_id: 'string?',
  updated_at: 'iso',
};

/** §7: the base fields only sensitive-data callers (global admins, safeguarding leads) get. */
export const PARTICIPANT_SENSITIVE: Fields = {
  allergies: 'string?',
  medical_conditions: 'string?',
  medications: 'string?',
  diet_type: 'string?',
  life_threatening_allergies: 'string?',
  freedom_waiver_granted: 'boolean',
  emergency_contacts: 'array',
};

/** §7: top-level `emergency_contacts[]` (the spec's shape: no id). */
export const EMERGENCY_CONTACT: Fields = {
  name: 'string',
  phone: 'string',
  relationship: 'string',
  priority: 'integer',
};

/** §7: `scans_by_context[]` (the app reads `is_airport`, the deprecated alias). */
export const SCANS_BY_CONTEXT: Fields = {
  scan_context_id: 'integer',
  scan_context_name: 'string',
  checks_in: 'boolean',
  is_airport: 'boolean',
  scan_count: 'integer',
  first_scanned_at: 'iso?',
  last_scanned_at: 'iso?',
};

/** §7 Travel: every mode's fields, the visa block, and legs. */
export const TRAVEL: Fields = {
  mode: 'string',
  train_departure_station: 'string?',
  departure_station: 'string?',
  train_arrival_station: 'string?',
  arrival_station: 'string?',
  origin_address: 'string?',
  expected_arrival_time: 'iso?',
  bus_departure_location: 'string?',
  bus_arrival_location: 'string?',
  other_details: 'string?',
  notes: 'string?',
  visa_required: 'boolean?',
  visa_status: 'string?',
  visa_type: 'string?',
  visa_number: 'string?',
  passport_nationality: 'string?',
  is_unaccompanied_minor: 'boolean',
  carrier: 'string?',
  flight_number: 'string?',
  departure_city: 'string?',
  arrival_city: 'string?',
  departure_time: 'iso?',
  arrival_time: 'iso?',
  legs: 'array',
};

export const TRAVEL_LEG: Fields = {
  id: 'integer',
  flight_code: 'string?',
  departure_airport: 'string?',
  arrival_airport: 'string?',
  departure_time: 'iso?',
  arrival_time: 'iso?',
  live_status: 'string?',
  live_departure_time: 'iso?',
  live_arrival_time: 'iso?',
  airport_picked_up_at: 'iso?',
};

/** §7 detail `personal` for a PII caller (`secondary_email`: not in Muster, see above). */
export const PERSONAL: Fields = {
  legal_first_name: 'string',
  legal_last_name: 'string',
  preferred_name: 'string?',
  date_of_birth: 'date?',
  age: 'integer?',
  tshirt_size: 'string?',
  engagement_preference: 'string?',
  engagement_notes: 'string?',
  address: 'object',
};

/** §7 detail `accommodation`: the spec's fields; preferences are strings (docs/decisions.md "Participants API"). */
export const ACCOMMODATION: Fields = {
  check_in_date: 'date?',
  check_out_date: 'date?',
  gender_identity: 'string?',
  gender_identity_other: 'string?',
  assigned_room: 'string?',
  rooming_exempt: 'boolean',
  venue_name: 'string?',
  preferred_roommate_genders: 'string?',
  roommate_preferences: 'string?',
  roommate_exclusions: 'string?',
  quiet_room_preference: 'string?',
  room_type_preference: 'string?',
  accessibility_needs: 'string?',
  notes: 'string?',
};

export const CONSENT: Fields = {
  id: 'integer',
  consent_type: 'string',
  status: 'string',
  pending_on: 'string?',
  signed_at: 'iso?',
  failure_reason: 'string?',
};

/** §7 detail `guardians[]`: permissions are strings, nullable (docs/decisions.md "Participants API"). */
export const GUARDIAN: Fields = {
  id: 'integer',
  name: 'string?',
  email: 'string?',
  phone: 'string?',
  relationship: 'string?',
  is_primary: 'boolean',
  status: 'string',
  media_permission: 'string?',
  photo_permission: 'string?',
  travel_permission: 'string?',
  emergency_medical_consent: 'string?',
  otc_medication_consent: 'string?',
  emergency_contacts: 'array',
};

export const GUARDIAN_CONTACT: Fields = {
  id: 'integer',
  name: 'string',
  phone: 'string',
  email: 'string?',
  relationship: 'string',
  priority: 'integer',
};

export const MEDICAL_DETAIL: Fields = {
  allergy_severity: 'string?',
  emergency_action_plan: 'string?',
  additional_notes: 'string?',
};
export const DIETARY_DETAIL: Fields = { intolerances: 'string?', notes: 'string?' };
export const SAFEGUARDING_DETAIL: Fields = {
  high_support_notes: 'string?',
  authorized_pickup_adults: 'string?',
  other_instructions: 'string?',
  curfew_acknowledged: 'boolean',
  overnight_rules_acknowledged: 'boolean',
};

/** §3.7 */
export const SCAN_CONTEXT: Fields = {
  id: 'integer',
  name: 'string',
  checks_in: 'boolean',
  is_airport: 'boolean',
  position: 'integer',
  starts_at: 'string?',
  ends_at: 'string?',
};

/** §3.8 RemoteScan: the fields Muster sends (see above for the ones it does not). */
export const REMOTE_SCAN: Fields = {
  id: 'integer',
  participant_event_id: 'integer',
  scanned_at: 'iso',
  client_scan_id: 'string?',
  source: 'string',
  created_at: 'iso',
};

/** §3.9 CreateScanResponse. */
export const CREATE_SCAN: Fields = {
  outcome: 'string',
  first_scan_in_context: 'boolean',
  first_scanned_at: 'iso',
  scan_context: 'object',
  scan: 'object',
  participant: 'object',
};

/** §3.12 */
export const NOTE: Fields = {
  id: 'integer',
  content: 'string',
  created_at: 'iso',
  author: 'object',
  sensitivity: 'string',
  note_type: 'string',
};
export const NOTE_AUTHOR: Fields = { id: 'integer', name: 'string', email: 'string' };

/** §3.14 travel calendar entry (camelCase). */
export const TRAVEL_ENTRY: Fields = {
  id: 'integer',
  participantId: 'integer',
  participantEventId: 'integer',
  participantName: 'string',
  participantPreferredName: 'string?',
  direction: 'string',
  mode: 'string',
  primaryTimeAt: 'string?',
  agendaDate: 'date?',
  route: 'string?',
  reference: 'string?',
  details: 'string?',
  pickupState: 'string?',
  isUnaccompaniedMinor: 'boolean',
  groups: 'array',
};

export const TRAVEL_COUNT_KEYS = [
  'total',
  'inbound',
  'outbound',
  'scheduled',
  'unscheduled',
  'awaitingPickup',
  'collected',
  'checkedIn',
  'pickupNotNeeded',
];
