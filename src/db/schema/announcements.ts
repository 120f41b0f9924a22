/**
 * Email announcements: one row per composed message, one recipient
 * row per distinct address it went to, linked to the email_log row that carries its delivery state.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, type Translations, ts, updatedAt } from './common.js';
import { events } from './events.js';
import { emailLog } from './messaging.js';
import { registrations } from './participants.js';

/**
 * audience: participants | guardians_primary | guardians_all | staff; statuses: registration statuses
 * the audience is drawn from (participants and guardians). status: sending | scheduled | sent |
 * cancelled (`sending` and `scheduled` wait for the `announcement-send` job).
 */
export const announcements = pgTable(
  'announcements',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** Subject and body in other offered languages: `{es: {subject, body}}` (docs/languages.md). */
    translations: jsonb('translations').$type<Translations<'subject' | 'body'>>().notNull().default({}),
    audience: text('audience').notNull(),
    statuses: text('statuses').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').notNull(),
    sendAt: ts('send_at'),
    sentAt: ts('sent_at'),
    recipientCount: integer('recipient_count').notNull().default(0),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.eventId, t.createdAt)],
);

/** kind: participant | guardian | staff. `email` is lower-cased: one row (one email) per address. */
export const announcementRecipients = pgTable(
  'announcement_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    kind: text('kind').notNull(),
    registrationId: integer('registration_id').references(() => registrations.id, { onDelete: 'set null' }),
    emailLogId: bigint('email_log_id', { mode: 'number' }).references(() => emailLog.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    uniqueIndex('announcement_recipients_unique').on(t.announcementId, t.email),
    index().on(t.emailLogId),
    // Deleting a registration (retention) sets its recipients' link to null without a scan.
    index().on(t.registrationId),
  ],
);
