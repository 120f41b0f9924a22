/** Chat accounts, chat blasts and recipients (docs/decisions.md "Messaging"), bans (docs/decisions.md "Series, events and bans"), email log. */
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, ts, updatedAt } from './common.js';
import { events } from './events.js';
import { registrations } from './participants.js';

/** Workspace users seen from the chat provider, linked to people by email. */
export const chatAccounts = pgTable('chat_accounts', {
  id: serial('id').primaryKey(),
  chatUserId: text('chat_user_id').notNull().unique(),
  email: text('email'),
  displayName: text('display_name'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** status: pending | in_progress | completed | failed; counts derive from recipient rows. */
export const chatBlasts = pgTable(
  'chat_blasts',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    status: text('status').notNull().default('pending'),
    sentByUserId: integer('sent_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    sentBy: text('sent_by').notNull(),
    recipientCount: integer('recipient_count').notNull().default(0),
    startedAt: ts('started_at'),
    completedAt: ts('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.eventId, t.createdAt)],
);

export const chatBlastRecipients = pgTable(
  'chat_blast_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    blastId: integer('blast_id')
      .notNull()
      .references(() => chatBlasts.id, { onDelete: 'cascade' }),
    registrationId: integer('registration_id').references(() => registrations.id, { onDelete: 'set null' }),
    chatUserId: text('chat_user_id').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    sentAt: ts('sent_at'),
    updatedAt: updatedAt(),
    // Delivery worker: a claim is a lease (`claimed_at` older than the lease is retaken);
    // `available_at` delays a retry; `message_ts` is the provider's id of the posted message.
    claimedAt: ts('claimed_at'),
    availableAt: ts('available_at').notNull().defaultNow(),
    messageTs: text('message_ts'),
  },
  (t) => [
    uniqueIndex('chat_blast_recipients_unique').on(t.blastId, t.registrationId),
    index().on(t.blastId, t.status),
    index('chat_blast_recipients_pending').on(t.blastId, t.availableAt).where(sql`status = 'pending'`),
    index().on(t.registrationId),
  ],
);

export const bans = pgTable('bans', {
  id: uuid('id').primaryKey().defaultRandom(),
  reason: text('reason').notNull().default(''),
  expiresAt: ts('expires_at'),
  revokedAt: ts('revoked_at'),
  createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** One row per normalised address; an address is on at most one ban. */
export const banEmails = pgTable(
  'ban_emails',
  {
    id: serial('id').primaryKey(),
    banId: uuid('ban_id')
      .notNull()
      .references(() => bans.id, { onDelete: 'cascade' }),
    email: text('email').notNull().unique(),
  },
  (t) => [index().on(t.banId)],
);

/**
 * Every email Muster sends. status: queued | sent | failed | suppressed (address flagged, not sent) |
 * delivered | bounced | opened (the last three from the email provider's webhook, docs/decisions.md "Messaging").
 */
export const emailLog = pgTable(
  'email_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    toEmail: text('to_email').notNull(),
    fromEmail: text('from_email').notNull(),
    template: text('template').notNull(),
    subject: text('subject').notNull(),
    status: text('status').notNull().default('queued'),
    providerMessageId: text('provider_message_id'),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'set null' }),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
    // Provider webhook events (docs/decisions.md "Messaging"): first delivery, first open, bounce.
    deliveredAt: ts('delivered_at'),
    openedAt: ts('opened_at'),
    bouncedAt: ts('bounced_at'),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.toEmail), index().on(t.providerMessageId)],
);
