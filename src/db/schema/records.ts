/** Consents, guardians, emergency contacts, travel and legs, invitations and staff notes. */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, ts, updatedAt } from './common.js';
import { eventConsentDocuments } from './event-content.js';
import { events } from './events.js';
import { registrations } from './participants.js';

const registrationId = () =>
  integer('registration_id')
    .notNull()
    .references(() => registrations.id, { onDelete: 'cascade' });

/** consent_type: waiver | freedom_waiver | code_of_conduct; status: pending | sent | viewed | signed | declined | expired. */
export const consents = pgTable(
  'consents',
  {
    id: serial('id').primaryKey(),
    registrationId: registrationId(),
    consentType: text('consent_type').notNull(),
    status: text('status').notNull().default('pending'),
    pendingOn: text('pending_on'),
    sentAt: ts('sent_at'),
    viewedAt: ts('viewed_at'),
    participantSignedAt: ts('participant_signed_at'),
    guardianSignedAt: ts('guardian_signed_at'),
    signedAt: ts('signed_at'),
    documentUrl: text('document_url'),
    failureReason: text('failure_reason'),
    signatureName: text('signature_name'),
    signatureIp: text('signature_ip'),
    esignSubmissionId: text('esign_submission_id'),
    /** The version of the event's consent document this signature signed (typed signatures). */
    documentId: integer('document_id').references(() => eventConsentDocuments.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('consents_registration_type').on(t.registrationId, t.consentType),
    index().on(t.documentId),
  ],
);

/** Guardian status: pending | invited | accepted | completed | declined. */
export const guardians = pgTable(
  'guardians',
  {
    id: serial('id').primaryKey(),
    registrationId: registrationId(),
    guardianUserId: integer('guardian_user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name'),
    email: text('email'),
    phone: text('phone'),
    relationship: text('relationship'),
    isPrimary: boolean('is_primary').notNull().default(false),
    status: text('status').notNull().default('pending'),
    acceptedAt: ts('accepted_at'),
    completedAt: ts('completed_at'),
    inviteTokenSentAt: ts('invite_token_sent_at'),
    inviteTokenDigest: text('invite_token_digest').unique(),
    inviteExpiresAt: ts('invite_expires_at'),
    invitedViaEmail: text('invited_via_email'),
    mediaPermission: text('media_permission'),
    photoPermission: text('photo_permission'),
    travelPermission: text('travel_permission'),
    emergencyMedicalConsent: text('emergency_medical_consent'),
    otcMedicationConsent: text('otc_medication_consent'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.registrationId)],
);

/** A registration's own contacts (guardian_id null) and guardians' contacts. */
export const emergencyContacts = pgTable(
  'emergency_contacts',
  {
    id: serial('id').primaryKey(),
    registrationId: registrationId(),
    guardianId: integer('guardian_id').references(() => guardians.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    relationship: text('relationship').notNull(),
    priority: integer('priority').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.registrationId), index().on(t.guardianId)],
);

/** direction: inbound | outbound; mode: plane | train | car | bus | other. */
export const travels = pgTable(
  'travels',
  {
    id: serial('id').primaryKey(),
    registrationId: registrationId(),
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    mode: text('mode').notNull(),
    visaRequired: boolean('visa_required'),
    visaStatus: text('visa_status'),
    visaType: text('visa_type'),
    visaNumber: text('visa_number'),
    passportNationality: text('passport_nationality'),
    isUnaccompaniedMinor: boolean('is_unaccompanied_minor').notNull().default(false),
    carrier: text('carrier'),
    flightNumber: text('flight_number'),
    trainDepartureStation: text('train_departure_station'),
    trainArrivalStation: text('train_arrival_station'),
    departureStation: text('departure_station'),
    arrivalStation: text('arrival_station'),
    departureCity: text('departure_city'),
    arrivalCity: text('arrival_city'),
    departureTime: ts('departure_time'),
    arrivalTime: ts('arrival_time'),
    expectedArrivalTime: ts('expected_arrival_time'),
    busDepartureLocation: text('bus_departure_location'),
    busArrivalLocation: text('bus_arrival_location'),
    originAddress: text('origin_address'),
    otherDetails: text('other_details'),
    notes: text('notes'),
    pickupDismissedAt: ts('pickup_dismissed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('travels_registration_direction').on(t.registrationId, t.direction)],
);

export const travelLegs = pgTable(
  'travel_legs',
  {
    id: serial('id').primaryKey(),
    travelId: integer('travel_id')
      .notNull()
      .references(() => travels.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    flightCode: text('flight_code'),
    departureAirport: text('departure_airport'),
    arrivalAirport: text('arrival_airport'),
    departureTime: ts('departure_time'),
    arrivalTime: ts('arrival_time'),
    liveStatus: text('live_status'),
    liveDepartureTime: ts('live_departure_time'),
    liveArrivalTime: ts('live_arrival_time'),
    travelPickedUpAt: ts('travel_picked_up_at'),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('travel_legs_position').on(t.travelId, t.position)],
);

/** An invitation (30-day token) enqueued by POST /events/{e}/participants (docs/decisions.md "Participants API"). */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    tokenDigest: text('token_digest').notNull().unique(),
    status: text('status', { enum: ['pending', 'accepted', 'revoked', 'expired'] })
      .notNull()
      .default('pending'),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    registrationId: integer('registration_id').references(() => registrations.id, { onDelete: 'set null' }),
    invitedByUserId: integer('invited_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    credentialKind: text('credential_kind'),
    credentialId: text('credential_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_event_email_pending').on(t.eventId, t.email).where(sql`status = 'pending'`),
    index().on(t.registrationId),
  ],
);

/** Staff notes; note_type ops|safeguarding|logistical; sensitivity normal|restricted (docs/decisions.md "Participants API"). */
export const notes = pgTable(
  'notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    registrationId: registrationId(),
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    noteType: text('note_type').notNull().default('ops'),
    sensitivity: text('sensitivity').notNull().default('normal'),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.registrationId, t.createdAt)],
);
