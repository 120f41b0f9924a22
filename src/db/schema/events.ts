/** Events, event roles and scan contexts (spec "Event (full)", docs/decisions.md "Check-in"). */
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { series, users } from './accounts.js';
import { createdAt, ts, updatedAt } from './common.js';

/** Module flags of an event (spec Event.modules). */
export interface EventModules {
  freedom_waivers_enabled: boolean;
  travel_enabled: boolean;
  visa_options_enabled: boolean;
  accommodation_enabled: boolean;
  roommate_preferences_enabled: boolean;
  guardian_invites_locked: boolean;
  nfc_badges_enabled: boolean;
  nfc_badge_write_on_checkin_enabled: boolean;
  groups_enabled: boolean;
  visa_application_url: string | null;
}

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    seriesId: uuid('series_id')
      .notNull()
      .references(() => series.id),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    supportEmail: text('support_email'),
    timezone: text('timezone').notNull().default('UTC'),
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    registrationOpenAt: ts('registration_open_at'),
    registrationCloseAt: ts('registration_close_at'),
    venueName: text('venue_name'),
    locationCity: text('location_city'),
    locationCountry: text('location_country'),
    locationAddress: text('location_address'),
    locationLatitude: doublePrecision('location_latitude'),
    locationLongitude: doublePrecision('location_longitude'),
    logoUrl: text('logo_url'),
    bannerUrl: text('banner_url'),
    setupComplete: boolean('setup_complete').notNull().default(false),
    /** Reminder emails (docs/email.md "Reminders"): on unless an organiser turns them off. */
    emailRemindersEnabled: boolean('email_reminders_enabled').notNull().default(true),
    modules: jsonb('modules').$type<EventModules>().notNull(),
    hotelScanContextId: uuid('hotel_scan_context_id'),
    /** SHA-256 digest of the legacy per-event API key (spec: "a legacy per-event key"). */
    legacyApiKeyDigest: text('legacy_api_key_digest').unique(),
    legacyApiKeyName: text('legacy_api_key_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.seriesId, t.startsAt)],
);

/** Event roles: `event_admin`, `ops`, `safeguarding_lead`, `limited`, `read_only` (several per user allowed). */
export const eventRoles = pgTable(
  'event_roles',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    role: text('role', {
      enum: ['event_admin', 'ops', 'safeguarding_lead', 'limited', 'read_only'],
    }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('event_roles_unique').on(t.userId, t.eventId, t.role), index().on(t.eventId)],
);

export const scanContexts = pgTable(
  'scan_contexts',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    checksIn: boolean('checks_in').notNull().default(false),
    isTravelPickup: boolean('is_travel_pickup').notNull().default(false),
    position: integer('position').notNull().default(0),
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index().on(t.eventId, t.position),
    uniqueIndex('scan_contexts_event_name').on(t.eventId, sql`lower(${t.name})`),
  ],
);

/**
 * Groups of an event (teams, cohorts, buses…): a name and an optional display colour (`#RRGGBB`).
 * Shown on the travel calendar when the event's `groups_enabled` module is on.
 */
export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('groups_event_name').on(t.eventId, sql`lower(${t.name})`)],
);
