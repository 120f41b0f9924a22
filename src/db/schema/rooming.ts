/**
 * Rooming (docs/rooming.md): an event's room inventory, its rooming rules as data, and the
 * reasons a safeguarding lead gave for keeping an assignment that breaks a rule. Who is in which
 * room is the record's `accommodation.assigned_room` (the room's name), written through the
 * participant record writer.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, updatedAt } from './common.js';
import { events } from './events.js';
import { registrations } from './participants.js';

export const roomTypes = ['single', 'twin', 'dorm'] as const;
export const genderDesignations = ['female', 'male', 'any', 'staff_only'] as const;

export const rooms = pgTable(
  'rooms',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    venue: text('venue'),
    floor: text('floor'),
    capacity: integer('capacity').notNull(),
    type: text('type', { enum: roomTypes }).notNull(),
    genderDesignation: text('gender_designation', { enum: genderDesignations }).notNull(),
    accessible: boolean('accessible').notNull().default(false),
    quiet: boolean('quiet').notNull().default(false),
    minAge: integer('min_age'),
    maxAge: integer('max_age'),
    /** Nights the room is available (YYYY-MM-DD of each night's evening); null = every night. */
    nights: jsonb('nights').$type<string[] | null>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('rooms_event_name_idx').on(t.eventId, sql`lower(${t.name})`)],
);

/** One row per event that has set its rules; absent = the defaults (docs/rooming.md "Rules"). */
export const roomingRules = pgTable('rooming_rules', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  rules: jsonb('rules').notNull().$type<Record<string, unknown>>(),
  updatedAt: updatedAt(),
});

/** A kept assignment that breaks a rule, with the reason a safeguarding lead gave. */
export const roomingOverrides = pgTable(
  'rooming_overrides',
  {
    registrationId: integer('registration_id')
      .primaryKey()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    rules: jsonb('rules').notNull().$type<string[]>(),
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.roomId)],
);
