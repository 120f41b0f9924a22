/**
 * The record sections the participant and their guardians write (the staff-owned superset that
 * import writes is item.schema.ts).
 *
 * RecordPatch, the body of `PATCH /registrations/{participant_event_id}` (docs/decisions.md "Registration side"): any subset
 * of the ParticipantDetail sections a participant fills in, each an object whose keys are optional
 * (absent = keep, `null` = clear where nullable). Staff-owned fields (assigned_room, rooming_exempt,
 * venue_name, consents, guardian status/permissions, live flight data, pickups, status) are not
 * accepted: they are unknown fields here (422). PortalPatch, the body of `PATCH /guardian/{token}`:
 * a guardian's own part of the record.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.js';
import { keysOf } from '../../../lib/narrow.js';

const strict = { additionalProperties: false } as const;
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const OptStr = (max = 2000) => Opt(Type.String({ maxLength: max }));
const OptBool = () => Type.Optional(Type.Boolean());
const OptDate = () => Opt(Type.String({ format: 'date' }));
const OptDateTime = () => Opt(Type.String({ format: 'date-time' }));
const Name = (max = 200) => Type.String({ minLength: 1, maxLength: max });
const Email = Type.String({ format: 'email', maxLength: 320 });
const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** The travel fields the import item and the participant's own PATCH share (spec "Travel"). */
export const TRAVEL_FIELDS = {
  visa_required: Opt(Type.Boolean()),
  visa_status: OptStr(100),
  visa_type: OptStr(100),
  visa_number: OptStr(100),
  passport_nationality: OptStr(100),
  is_unaccompanied_minor: OptBool(),
  carrier: OptStr(200),
  flight_number: OptStr(50),
  train_departure_station: OptStr(200),
  train_arrival_station: OptStr(200),
  departure_station: OptStr(200),
  arrival_station: OptStr(200),
  departure_city: OptStr(200),
  arrival_city: OptStr(200),
  departure_time: OptDateTime(),
  arrival_time: OptDateTime(),
  expected_arrival_time: OptDateTime(),
  bus_departure_location: OptStr(500),
  bus_arrival_location: OptStr(500),
  origin_address: OptStr(),
  other_details: OptStr(),
  notes: OptStr(),
};

export const TSHIRT_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'] as const;
export const TRAVEL_MODES = ['plane', 'train', 'car', 'bus', 'other'] as const;

export const AddressPatch = Type.Object(
  {
    line_1: OptStr(500),
    line_2: OptStr(500),
    city: OptStr(200),
    state: OptStr(200),
    postal_code: OptStr(50),
    country: OptStr(200),
  },
  { ...strict, description: 'Replaces the stored address as a whole; blank keys are dropped' },
);

export const PersonalPatch = Type.Object(
  {
    legal_first_name: Type.Optional(Name()),
    legal_last_name: Type.Optional(Name()),
    preferred_name: OptStr(200),
    date_of_birth: Opt(
      Type.String({ format: 'date', description: 'YYYY-MM-DD, not in the future, from 1900 on' }),
    ),
    tshirt_size: Opt(oneOf(TSHIRT_SIZES)),
    engagement_preference: OptStr(500),
    engagement_notes: OptStr(),
    address: Opt(AddressPatch),
  },
  strict,
);

export const AccommodationPatch = Type.Object(
  {
    check_in_date: OptDate(),
    check_out_date: OptDate(),
    gender_identity: OptStr(200),
    gender_identity_other: OptStr(200),
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

export const MedicalPatch = Type.Object(
  { allergy_severity: OptStr(200), emergency_action_plan: OptStr(), additional_notes: OptStr() },
  strict,
);
export const DietaryPatch = Type.Object({ intolerances: OptStr(), notes: OptStr() }, strict);
export const SafeguardingPatch = Type.Object(
  {
    high_support_notes: OptStr(),
    authorized_pickup_adults: OptStr(),
    other_instructions: OptStr(),
    curfew_acknowledged: OptBool(),
    overnight_rules_acknowledged: OptBool(),
  },
  strict,
);

export const LegPatch = Type.Object(
  {
    flight_code: Opt(Type.String({ maxLength: 20, description: 'IATA flight designator, e.g. BA117' })),
    departure_airport: Opt(Type.String({ maxLength: 10, description: 'IATA airport code, e.g. LHR' })),
    arrival_airport: Opt(Type.String({ maxLength: 10, description: 'IATA airport code' })),
    departure_time: OptDateTime(),
    arrival_time: OptDateTime(),
  },
  strict,
);

export const TravelPatch = Type.Object(
  {
    mode: oneOf(TRAVEL_MODES),
    ...TRAVEL_FIELDS,
    legs: Type.Optional(
      Type.Array(LegPatch, { maxItems: 10, description: 'Replaces the legs, in order (position 1, 2, …)' }),
    ),
  },
  strict,
);

export const ContactPatch = Type.Object(
  {
    name: Name(),
    phone: Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'International format, e.g. +447700900123',
    }),
    email: Opt(Email),
    relationship: Name(100),
    priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  strict,
);

export const GuardianPatch = Type.Object(
  {
    name: Name(),
    email: Email,
    phone: Opt(Type.String({ maxLength: 50, description: 'International format' })),
    relationship: OptStr(100),
    is_primary: OptBool(),
  },
  strict,
);

/** Top-level Participant fields the participant provides (an extension: they live outside the sections). */
const topLevel = {
  phone: Opt(Type.String({ maxLength: 50, description: 'International format, e.g. +447700900123' })),
  pronouns: OptStr(50),
  allergies: OptStr(),
  medical_conditions: OptStr(),
  medications: OptStr(),
  life_threatening_allergies: OptStr(),
  has_anaphylaxis_risk: OptBool(),
  requires_refrigeration: OptBool(),
  diet_type: OptStr(100),
  cross_contamination_risk: OptBool(),
};

export const RecordPatch = Type.Object(
  {
    ...topLevel,
    personal: Type.Optional(PersonalPatch),
    accommodation: Type.Optional(AccommodationPatch),
    medical_detail: Type.Optional(MedicalPatch),
    dietary_detail: Type.Optional(DietaryPatch),
    accessibility: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
        description: 'Free-form object; replaces the stored one as a whole',
      }),
    ),
    safeguarding_detail: Type.Optional(SafeguardingPatch),
    travel_inbound: Type.Optional(TravelPatch),
    travel_outbound: Type.Optional(TravelPatch),
    emergency_contacts: Type.Optional(
      Type.Array(ContactPatch, { maxItems: 20, description: "Replaces the registration's own contacts" }),
    ),
    guardians: Type.Optional(
      Type.Array(GuardianPatch, {
        maxItems: 10,
        description: 'Becomes the guardian list (matched by email; others removed); at most one primary',
      }),
    ),
  },
  strict,
);
export type RecordPatchInput = Static<typeof RecordPatch>;
export type TravelPatchInput = Static<typeof TravelPatch>;

/** The section names of RecordPatch, in the order they are written (for the audit entry). */
export const PATCH_KEYS: (keyof RecordPatchInput)[] = keysOf(RecordPatch.properties);

const Answer = Type.Union([Type.Literal('granted'), Type.Literal('denied')]);

/**
 * What a guardian writes of their own guardian record through the portal (docs/decisions.md "Guardian portal" "Guardian
 * portal"): their details, the permissions (`granted` | `denied`) and their emergency contacts. The
 * email is the invitation's address and is not here (an unknown field).
 */
export const PortalPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 50, description: 'International format' }))),
    relationship: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    media_permission: Type.Optional(Answer),
    photo_permission: Type.Optional(Answer),
    travel_permission: Type.Optional(Answer),
    emergency_medical_consent: Type.Optional(Answer),
    otc_medication_consent: Type.Optional(Nullable(Answer)),
    emergency_contacts: Type.Optional(
      Type.Array(ContactPatch, { maxItems: 10, description: 'Replaces this guardian’s contacts' }),
    ),
    authorized_pickup_adults: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          description:
            'The adults who may collect the child at the door (the child’s safeguarding section; docs/checkin.md "Presence")',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type PortalPatchInput = Static<typeof PortalPatch>;
