/**
 * The whole participant record as one item, staff-owned fields included: what import writes
 * (docs/decisions.md "Import") and what the section writers (upsert.ts) take. The spec's
 * ParticipantDetail shape without ids, plus `status`. Read-only fields of an exported ParticipantDetail (ids, display_name, checked_in_at,
 * scans_by_context, …) are accepted and ignored so an export can be re-imported; any other unknown
 * field is a 422, so a typo is never silently dropped.
 */
import { type Static, type TSchema, Type } from 'typebox';
import type { RegistrationStatus } from '../../../db/schema/index.js';
import {
  AddressPatch,
  DietaryPatch,
  MedicalPatch,
  SafeguardingPatch,
  TRAVEL_FIELDS,
} from './sections.schemas.js';

const Str = (max = 2000) => Type.String({ maxLength: max });
/** Optional and nullable: absent = keep the stored value, null = clear it. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const OptStr = (max = 2000) => Opt(Str(max));
const OptBool = () => Type.Optional(Type.Boolean());
const OptDate = () => Opt(Type.String({ format: 'date' }));
const OptDateTime = () => Opt(Type.String({ format: 'date-time' }));
/** Accepted on input for round-trips, never written (derived or server-assigned). */
const Ignored = () => Type.Optional(Type.Unknown());
const Email = Type.String({ format: 'email', maxLength: 320 });
const strict = { additionalProperties: false } as const;

export const ImportStatusSchema = Type.Union([
  Type.Literal('invited'),
  Type.Literal('in_progress'),
  Type.Literal('awaiting_guardian'),
  Type.Literal('complete'),
  Type.Literal('withdrawn'),
  Type.Literal('rejected'),
]);
// The literals above must list exactly the registration statuses of the data model.
const _sameStatuses: [Static<typeof ImportStatusSchema>, RegistrationStatus] extends [
  RegistrationStatus,
  Static<typeof ImportStatusSchema>,
]
  ? true
  : never = true;
void _sameStatuses;

export const ImportAddressSchema = AddressPatch;

export const ImportPersonalSchema = Type.Object(
  {
    // Required for a new person (checked by importParticipants); optional when updating one.
    legal_first_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    legal_last_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    preferred_name: OptStr(200),
    date_of_birth: OptDate(),
    age: Ignored(),
    tshirt_size: OptStr(20),
    engagement_preference: OptStr(500),
    engagement_notes: OptStr(),
    address: Opt(ImportAddressSchema),
  },
  strict,
);

export const ImportAccommodationSchema = Type.Object(
  {
    check_in_date: OptDate(),
    check_out_date: OptDate(),
    gender_identity: OptStr(200),
    gender_identity_other: OptStr(200),
    assigned_room: OptStr(200),
    rooming_exempt: OptBool(),
    venue_name: OptStr(500),
    preferred_roommate_genders: OptStr(500),
    roommate_preferences: OptStr(),
    roommate_exclusions: OptStr(),
    quiet_room_preference: OptStr(500),
    room_type_preference: OptStr(500),
    accessibility_needs: OptStr(),
    notes: OptStr(),
  },
  strict,
);

export const ImportConsentSchema = Type.Object(
  {
    id: Ignored(),
    consent_type: Type.String({ minLength: 1, maxLength: 100 }),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    pending_on: OptStr(100),
    sent_at: OptDateTime(),
    viewed_at: OptDateTime(),
    participant_signed_at: OptDateTime(),
    guardian_signed_at: OptDateTime(),
    signed_at: OptDateTime(),
    document_url: OptStr(),
    failure_reason: OptStr(),
  },
  strict,
);

export const ImportContactSchema = Type.Object(
  {
    id: Ignored(),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    phone: Type.String({ minLength: 1, maxLength: 50 }),
    email: Opt(Email),
    relationship: Type.String({ minLength: 1, maxLength: 100 }),
    priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  strict,
);

export const ImportGuardianSchema = Type.Object(
  {
    id: Ignored(),
    guardian_id: Ignored(),
    name: OptStr(200),
    email: Opt(Email),
    phone: OptStr(50),
    relationship: OptStr(100),
    is_primary: OptBool(),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    accepted_at: OptDateTime(),
    completed_at: OptDateTime(),
    invite_token_sent_at: OptDateTime(),
    invited_via_email: OptStr(320),
    media_permission: OptStr(200),
    photo_permission: OptStr(200),
    travel_permission: OptStr(200),
    emergency_medical_consent: OptStr(200),
    otc_medication_consent: OptStr(200),
    emergency_contacts: Type.Optional(Type.Array(ImportContactSchema, { maxItems: 20 })),
  },
  strict,
);

export const ImportLegSchema = Type.Object(
  {
    id: Ignored(),
    position: Ignored(),
    flight_code: OptStr(20),
    departure_airport: OptStr(10),
    arrival_airport: OptStr(10),
    departure_time: OptDateTime(),
    arrival_time: OptDateTime(),
    live_status: OptStr(100),
    live_departure_time: OptDateTime(),
    live_arrival_time: OptDateTime(),
    travel_picked_up_at: OptDateTime(),
    airport_picked_up_at: OptDateTime(),
  },
  strict,
);

export const ImportTravelSchema = Type.Object(
  {
    id: Ignored(),
    direction: Ignored(), // decided by the key (travel_inbound / travel_outbound)
    mode: Type.String({ minLength: 1, maxLength: 50 }),
    ...TRAVEL_FIELDS,
    pickup_dismissed_at: OptDateTime(),
    legs: Type.Optional(Type.Array(ImportLegSchema, { maxItems: 10 })),
  },
  strict,
);

export const ImportMedicalSchema = MedicalPatch;
export const ImportDietarySchema = DietaryPatch;
export const ImportSafeguardingSchema = SafeguardingPatch;

/** One participant registration to import. Only `email` is always required. */
export const ImportItemSchema = Type.Object(
  {
    email: Email,
    status: Type.Optional(ImportStatusSchema),
    phone: OptStr(50),
    pronouns: OptStr(50),
    headshot_url: OptStr(),
    chat_user_id: OptStr(200),
    has_anaphylaxis_risk: OptBool(),
    requires_refrigeration: OptBool(),
    cross_contamination_risk: OptBool(),
    high_support_flag: OptBool(),
    can_leave_unaccompanied: OptBool(),
    allergies: OptStr(),
    medical_conditions: OptStr(),
    medications: OptStr(),
    life_threatening_allergies: OptStr(),
    diet_type: OptStr(100),
    freedom_waiver_granted: OptBool(),
    personal: Type.Optional(ImportPersonalSchema),
    accommodation: Opt(ImportAccommodationSchema),
    consents: Type.Optional(Type.Array(ImportConsentSchema, { maxItems: 20 })),
    guardians: Type.Optional(Type.Array(ImportGuardianSchema, { maxItems: 10 })),
    emergency_contacts: Type.Optional(Type.Array(ImportContactSchema, { maxItems: 20 })),
    medical_detail: Opt(ImportMedicalSchema),
    dietary_detail: Opt(ImportDietarySchema),
    accessibility: Opt(Type.Record(Type.String(), Type.Unknown())),
    safeguarding_detail: Opt(ImportSafeguardingSchema),
    travel_inbound: Opt(ImportTravelSchema),
    travel_outbound: Opt(ImportTravelSchema),
    // Read-only fields of an exported ParticipantDetail: accepted, ignored.
    participant_id: Ignored(),
    participant_event_id: Ignored(),
    display_name: Ignored(),
    full_name: Ignored(),
    checked_in_at: Ignored(),
    nfc_badge_token: Ignored(),
    nfc_badge_assigned: Ignored(),
    waiver_signed: Ignored(),
    updated_at: Ignored(),
    scans_by_context: Ignored(),
    parent_guardian_name: Ignored(),
    parent_guardian_phone: Ignored(),
    parent_guardian_email: Ignored(),
  },
  strict,
);

export type ImportItem = Static<typeof ImportItemSchema>;
export type ImportTravel = Static<typeof ImportTravelSchema>;
export type ImportGuardian = Static<typeof ImportGuardianSchema>;
export type ImportContact = Static<typeof ImportContactSchema>;
