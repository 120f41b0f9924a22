/**
 * Per-event email wording (docs/email.md "Editable wording") and the reminders already sent
 * (docs/email.md "Reminders"): one row per (kind, registration, guardian), so a reminder job run
 * twice sends nothing the second time.
 */
import { index, integer, jsonb, pgTable, serial, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, type Translations, updatedAt } from './common.js';
import { events } from './events.js';
import { emailLog } from './messaging.js';
import { registrations } from './participants.js';
import { guardians } from './records.js';

/** An organiser's wording of one editable template (`invitation`, `guardian_invitation`, `registration_reminder`). */
export const emailTemplates = pgTable(
  'email_templates',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    template: text('template').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** The wording in other offered languages: `{es: {subject, body}}` (docs/languages.md). */
    translations: jsonb('translations').$type<Translations<'subject' | 'body'>>().notNull().default({}),
    updatedByUserId: integer('updated_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('email_templates_event_template').on(t.eventId, t.template)],
);

/**
 * kind: `guardian_resend` (invitation still unanswered after 3 days), `guardian_renew` (expired
 * while the registration awaits its guardians), `close_7d` and `close_2d` (registration closes soon).
 * guardian_id is null for the participant kinds; the unique key treats nulls as equal.
 */
export const emailReminders = pgTable(
  'email_reminders',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    registrationId: integer('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    guardianId: integer('guardian_id').references(() => guardians.id, { onDelete: 'cascade' }),
    emailLogId: integer('email_log_id').references(() => emailLog.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('email_reminders_once').on(t.kind, t.registrationId, t.guardianId).nullsNotDistinct(),
    index().on(t.eventId, t.createdAt),
    // Registrations, guardians (replaced by a record edit) and log rows are deleted one by one:
    // each delete finds its reminders through an index, not a scan.
    index().on(t.registrationId),
    index().on(t.guardianId),
    index().on(t.emailLogId),
  ],
);
