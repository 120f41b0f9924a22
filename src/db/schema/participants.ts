/**
 * People (participant_id) and registrations (participant_event_id) with every section of the
 * spec's ParticipantDetail. Section rows are one per registration. Triggers in the migrations bump
 * `registrations.updated_at` whenever anything in a registration's record changes (docs/decisions.md "Participants API").
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, ts, updatedAt } from './common.js';
import { events, groups } from './events.js';

/** Postal address; blank keys are omitted on the wire (spec personal.address). */
export interface Address {
  line_1?: string;
  line_2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

export const registrationStatuses = [
  'invited',
  'in_progress',
  'awaiting_guardian',
  'complete',
  'withdrawn',
  'rejected',
] as const;
export type RegistrationStatus = (typeof registrationStatuses)[number];

export const people = pgTable(
  'people',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    legalFirstName: text('legal_first_name').notNull(),
    legalLastName: text('legal_last_name').notNull(),
    preferredName: text('preferred_name'),
    pronouns: text('pronouns'),
    phone: text('phone'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    headshotUrl: text('headshot_url'),
    chatUserId: text('chat_user_id'),
    address: jsonb('address').$type<Address>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('people_email_key').on(sql`lower(${t.email})`),
    index().on(t.userId),
    // The staff participants table's default order (last, first name): a page is read in index
    // order instead of sorting every registration of the event (dashboard/table.sql.ts SORT_KEYS).
    index('people_name_sort').on(sql`lower(${t.legalLastName})`, sql`lower(${t.legalFirstName})`),
  ],
);

export const registrations = pgTable(
  'registrations',
  {
    id: serial('id').primaryKey(),
    /** `registration_uuid` (docs/decisions.md "Check-in"): random, public, never reused; the tickets' QR payload. */
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    status: text('status', { enum: registrationStatuses }).notNull().default('invited'),
    tshirtSize: text('tshirt_size'),
    engagementPreference: text('engagement_preference'),
    engagementNotes: text('engagement_notes'),
    freedomWaiverGranted: boolean('freedom_waiver_granted').notNull().default(false),
    nfcBadgeToken: text('nfc_badge_token'),
    nfcBadgeAssignedAt: ts('nfc_badge_assigned_at'),
    submittedAt: ts('submitted_at'),
    completedAt: ts('completed_at'),
    withdrawnAt: ts('withdrawn_at'),
    /**
     * The first check-in: the earliest `scanned_at` of the registration's scans in a `checks_in`
     * context, NULL when there is none. Kept by triggers (drizzle/0016_first_checked_in_at.sql) on
     * every scan written, deleted or changed and on a context's `checks_in` switched; read by the
     * staff table's sort by check-in, which would otherwise aggregate every scan of the event.
     */
    firstCheckedInAt: ts('first_checked_in_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('registrations_event_person').on(t.eventId, t.personId),
    uniqueIndex('registrations_event_badge').on(t.eventId, t.nfcBadgeToken),
    index('registrations_event_updated').on(t.eventId, t.updatedAt),
    index().on(t.personId),
  ],
);

/** Which groups of its event a registration belongs to (read where `g.event_id = r.event_id`). */
export const registrationGroups = pgTable(
  'registration_groups',
  {
    registrationId: integer('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.registrationId, t.groupId] }), index().on(t.groupId)],
);

const registrationRef = () =>
  integer('registration_id')
    .primaryKey()
    .references(() => registrations.id, { onDelete: 'cascade' });

export const accommodations = pgTable('registration_accommodations', {
  registrationId: registrationRef(),
  checkInDate: date('check_in_date', { mode: 'string' }),
  checkOutDate: date('check_out_date', { mode: 'string' }),
  genderIdentity: text('gender_identity'),
  genderIdentityOther: text('gender_identity_other'),
  assignedRoom: text('assigned_room'),
  roomingExempt: boolean('rooming_exempt').notNull().default(false),
  venueName: text('venue_name'),
  preferredRoommateGenders: text('preferred_roommate_genders'),
  roommatePreferences: text('roommate_preferences'),
  roommateExclusions: text('roommate_exclusions'),
  quietRoomPreference: text('quiet_room_preference'),
  roomTypePreference: text('room_type_preference'),
  accessibilityNeeds: text('accessibility_needs'),
  notes: text('notes'),
  updatedAt: updatedAt(),
});

/** Medical section. The two flags are non-sensitive summary fields shown to all staff. */
export const medicalDetails = pgTable('registration_medical', {
  registrationId: registrationRef(),
  allergies: text('allergies'),
  medicalConditions: text('medical_conditions'),
  medications: text('medications'),
  lifeThreateningAllergies: text('life_threatening_allergies'),
  allergySeverity: text('allergy_severity'),
  emergencyActionPlan: text('emergency_action_plan'),
  additionalNotes: text('additional_notes'),
  hasAnaphylaxisRisk: boolean('has_anaphylaxis_risk').notNull().default(false),
  requiresRefrigeration: boolean('requires_refrigeration').notNull().default(false),
  updatedAt: updatedAt(),
});

export const dietaryDetails = pgTable('registration_dietary', {
  registrationId: registrationRef(),
  dietType: text('diet_type'),
  intolerances: text('intolerances'),
  notes: text('notes'),
  crossContaminationRisk: boolean('cross_contamination_risk').notNull().default(false),
  updatedAt: updatedAt(),
});

export const accessibilityDetails = pgTable('registration_accessibility', {
  registrationId: registrationRef(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: updatedAt(),
});

/** Safeguarding section; the two flags are non-sensitive summary fields. */
export const safeguardingDetails = pgTable('registration_safeguarding', {
  registrationId: registrationRef(),
  highSupportNotes: text('high_support_notes'),
  authorizedPickupAdults: text('authorized_pickup_adults'),
  otherInstructions: text('other_instructions'),
  curfewAcknowledged: boolean('curfew_acknowledged').notNull().default(false),
  overnightRulesAcknowledged: boolean('overnight_rules_acknowledged').notNull().default(false),
  highSupportFlag: boolean('high_support_flag').notNull().default(false),
  canLeaveUnaccompanied: boolean('can_leave_unaccompanied').notNull().default(false),
  updatedAt: updatedAt(),
});
