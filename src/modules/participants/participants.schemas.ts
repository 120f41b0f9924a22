/**
 * Wire shapes of the participants endpoints (spec "Participant", "ParticipantDetail",
 * "ScansByContext", "Travel", "TravelLeg"; docs/decisions.md "Participants API"). Optional keys are those omitted for
 * callers without PII or sensitive access, or (travel) when there is no record.
 */
import { Type } from 'typebox';
import { DateOnly, DateTime, Nullable, NullableDateTime } from '../../http/schema-helpers.js';

const NStr = Nullable(Type.String());

/**
 * A registration status (db/schema `registrationStatuses`), written out so its static type is the
 * union of the names (a mapped list would type as `never`).
 */
export const RegistrationStatusSchema = Type.Union([
  Type.Literal('invited'),
  Type.Literal('in_progress'),
  Type.Literal('awaiting_guardian'),
  Type.Literal('complete'),
  Type.Literal('withdrawn'),
  Type.Literal('rejected'),
]);
const NBool = Nullable(Type.Boolean());

export const ScansByContext = Type.Object({
  scan_context_id: Type.Integer(),
  scan_context_name: Type.String(),
  checks_in: Type.Boolean(),
  is_travel_pickup: Type.Boolean(),
  is_airport: Type.Boolean({ deprecated: true, description: 'Deprecated alias of is_travel_pickup' }),
  scan_count: Type.Integer(),
  first_scanned_at: NullableDateTime,
  last_scanned_at: NullableDateTime,
  inside: Nullable(
    Type.Boolean({
      description: 'Inside now (newest scan an entry); null where the context does not track presence',
    }),
  ),
  last_exit_at: NullableDateTime,
});

export const TravelLeg = Type.Object({
  id: Type.Integer(),
  position: Type.Integer(),
  flight_code: NStr,
  departure_airport: NStr,
  arrival_airport: NStr,
  departure_time: NullableDateTime,
  arrival_time: NullableDateTime,
  live_status: NStr,
  live_departure_time: NullableDateTime,
  live_arrival_time: NullableDateTime,
  travel_picked_up_at: NullableDateTime,
  airport_picked_up_at: Type.Union([DateTime, Type.Null()], {
    deprecated: true,
    description: 'Deprecated alias of travel_picked_up_at',
  }),
});

export const Travel = Type.Object({
  id: Type.Integer(),
  direction: Type.String({ examples: ['inbound', 'outbound'] }),
  mode: Type.String({ examples: ['plane', 'train', 'car', 'bus', 'other'] }),
  visa_required: NBool,
  visa_status: NStr,
  visa_type: NStr,
  visa_number: NStr,
  passport_nationality: NStr,
  is_unaccompanied_minor: Type.Boolean(),
  carrier: NStr,
  flight_number: NStr,
  train_departure_station: NStr,
  train_arrival_station: NStr,
  departure_station: NStr,
  arrival_station: NStr,
  departure_city: NStr,
  arrival_city: NStr,
  departure_time: NullableDateTime,
  arrival_time: NullableDateTime,
  expected_arrival_time: NullableDateTime,
  bus_departure_location: NStr,
  bus_arrival_location: NStr,
  origin_address: Type.Optional(Nullable(Type.String({ description: 'PII: omitted for limited callers' }))),
  other_details: NStr,
  notes: NStr,
  pickup_dismissed_at: NullableDateTime,
  legs: Type.Array(TravelLeg),
});

const EmergencyContact = Type.Object({
  name: Type.String(),
  phone: Type.String(),
  relationship: Type.String(),
  priority: Type.Integer(),
});

export const participantFields = {
  participant_id: Type.Integer({ description: 'The person' }),
  participant_event_id: Type.Integer({ description: 'The registration id' }),
  display_name: Type.String(),
  full_name: Type.String(),
  email: Type.String({ format: 'email' }),
  chat_user_id: NStr,
  slack_user_id: Nullable(
    Type.String({ description: 'Always equal to `chat_user_id` (the name the mobile app reads)' }),
  ),
  phone: Type.Optional(Nullable(Type.String({ description: 'PII' }))),
  pronouns: NStr,
  headshot_url: NStr,
  status: RegistrationStatusSchema,
  checked_in_at: NullableDateTime,
  nfc_badge_token: NStr,
  nfc_badge_assigned: Type.Boolean(),
  has_anaphylaxis_risk: Type.Boolean(),
  requires_refrigeration: Type.Boolean(),
  cross_contamination_risk: Type.Boolean(),
  high_support_flag: Type.Boolean(),
  can_leave_unaccompanied: Type.Boolean(),
  waiver_signed: Type.Boolean(),
  updated_at: DateTime,
  scans_by_context: Type.Array(ScansByContext),
  travel_inbound: Type.Optional(Travel),
  travel_outbound: Type.Optional(Travel),
  allergies: Type.Optional(NStr),
  medical_conditions: Type.Optional(NStr),
  medications: Type.Optional(NStr),
  diet_type: Type.Optional(NStr),
  life_threatening_allergies: Type.Optional(NStr),
  freedom_waiver_granted: Type.Optional(Type.Boolean()),
  emergency_contacts: Type.Optional(Type.Array(EmergencyContact)),
  parent_guardian_name: Type.Optional(Type.String()),
  parent_guardian_phone: Type.Optional(Type.String()),
  parent_guardian_email: Type.Optional(Type.String()),
};

export const Participant = Type.Object(participantFields, {
  description:
    'Sensitive keys (allergies … parent_guardian_email) only for global admins and safeguarding leads',
});

const Address = Type.Object(
  {
    line_1: Type.Optional(Type.String()),
    line_2: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
    postal_code: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
  },
  { description: 'Blank fields are omitted' },
);

const Personal = Type.Object({
  legal_first_name: Type.String(),
  legal_last_name: Type.String(),
  preferred_name: NStr,
  date_of_birth: Type.Optional(Nullable(DateOnly)),
  age: Nullable(Type.Integer({ description: 'Age in whole years on the event start date (today if unset)' })),
  tshirt_size: NStr,
  engagement_preference: NStr,
  engagement_notes: NStr,
  address: Type.Optional(Address),
});

const Accommodation = Type.Object({
  check_in_date: Nullable(DateOnly),
  check_out_date: Nullable(DateOnly),
  gender_identity: NStr,
  gender_identity_other: NStr,
  assigned_room: NStr,
  rooming_exempt: Type.Boolean(),
  venue_name: NStr,
  preferred_roommate_genders: NStr,
  roommate_preferences: NStr,
  roommate_exclusions: NStr,
  quiet_room_preference: NStr,
  room_type_preference: NStr,
  accessibility_needs: NStr,
  notes: NStr,
});

const Consent = Type.Object({
  id: Type.Integer(),
  consent_type: Type.String({ examples: ['waiver', 'freedom_waiver', 'code_of_conduct'] }),
  status: Type.String({ examples: ['pending', 'sent', 'viewed', 'signed', 'declined', 'expired'] }),
  pending_on: NStr,
  sent_at: NullableDateTime,
  viewed_at: NullableDateTime,
  participant_signed_at: NullableDateTime,
  guardian_signed_at: NullableDateTime,
  signed_at: NullableDateTime,
  document_url: NStr,
  failure_reason: NStr,
});

const GuardianContact = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  phone: Type.Optional(Type.String({ description: 'PII' })),
  email: Type.Optional(Nullable(Type.String({ description: 'PII' }))),
  relationship: Type.String(),
  priority: Type.Integer(),
});

const Guardian = Type.Object({
  id: Type.Integer(),
  guardian_id: Nullable(Type.Integer()),
  name: NStr,
  email: Type.Optional(NStr),
  phone: Type.Optional(NStr),
  relationship: NStr,
  is_primary: Type.Boolean(),
  status: Type.String({ examples: ['pending', 'invited', 'accepted', 'completed', 'declined'] }),
  accepted_at: NullableDateTime,
  completed_at: NullableDateTime,
  invite_token_sent_at: NullableDateTime,
  invited_via_email: Type.Optional(
    Nullable(Type.String({ description: 'PII: omitted for limited callers' })),
  ),
  media_permission: NStr,
  photo_permission: NStr,
  travel_permission: NStr,
  emergency_medical_consent: NStr,
  otc_medication_consent: NStr,
  emergency_contacts: Type.Array(GuardianContact),
});

export const ParticipantDetail = Type.Object({
  ...participantFields,
  personal: Personal,
  accommodation: Nullable(Accommodation),
  consents: Type.Array(Consent),
  guardians: Type.Array(Guardian),
  medical_detail: Type.Optional(
    Nullable(Type.Object({ allergy_severity: NStr, emergency_action_plan: NStr, additional_notes: NStr })),
  ),
  dietary_detail: Type.Optional(Nullable(Type.Object({ intolerances: NStr, notes: NStr }))),
  accessibility: Type.Optional(
    Nullable(Type.Object({}, { additionalProperties: true, description: 'Free-form' })),
  ),
  safeguarding_detail: Type.Optional(
    Nullable(
      Type.Object({
        high_support_notes: NStr,
        authorized_pickup_adults: NStr,
        other_instructions: NStr,
        curfew_acknowledged: Type.Boolean(),
        overnight_rules_acknowledged: Type.Boolean(),
      }),
    ),
  ),
});

export const ParticipantList = Type.Object({ participants: Type.Array(Participant), synced_at: DateTime });
export const SearchResults = Type.Object({ results: Type.Array(Participant) });
export const DetailBody = Type.Object({ participant: ParticipantDetail });
export const LookupBody = Type.Object({
  email: Type.String(),
  registered: Type.Boolean(),
  participant_id: Nullable(Type.Integer()),
  status: NStr,
});
export const RosterBody = Type.Object({
  participants: Type.Array(
    Type.Object({
      email: Type.String(),
      first_name: Type.String(),
      last_name: Type.String(),
      chat_user_id: NStr,
      slack_user_id: Nullable(Type.String({ description: 'Always equal to `chat_user_id`' })),
      status: Type.String(),
    }),
  ),
  synced_at: DateTime,
});
