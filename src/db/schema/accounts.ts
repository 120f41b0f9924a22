/** Users, roles and series (docs/decisions.md "Credentials and roles"). Users and events carry both a numeric id and a UUID. See docs/decisions.md "Identifiers". */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ts, updatedAt } from './common.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    globalAdmin: boolean('global_admin').notNull().default(false),
    emailBouncedAt: ts('email_bounced_at'),
    helpdeskCustomerId: text('helpdesk_customer_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const series = pgTable('series', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Series roles: `owner`, `organizer`. */
export const seriesRoles = pgTable(
  'series_roles',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seriesId: uuid('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'organizer'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('series_roles_unique').on(t.userId, t.seriesId, t.role), index().on(t.seriesId)],
);
