/**
 * Inbound receivers (docs/decisions.md "Messaging"): the replay-dedupe log of provider events,
 * suppressed email addresses (hard bounces), and help-desk conversations linked to users.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, ts, updatedAt } from './common.js';

/**
 * One row per accepted provider event; unique (provider, event_id) drops replays. `payload` is the
 * verified JSON body the `webhook-process` job works from; `processed_at` is set when it has run.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider', { enum: ['email', 'helpdesk', 'esign', 'chat'] }).notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    outcome: text('outcome'),
    createdAt: createdAt(),
    processedAt: ts('processed_at'),
  },
  (t) => [uniqueIndex('webhook_events_provider_event').on(t.provider, t.eventId)],
);

/** Addresses no email is sent to (a hard bounce or spam complaint). One row per lower-cased address. */
export const emailSuppressions = pgTable(
  'email_suppressions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    reason: text('reason').notNull(),
    emailLogId: bigint('email_log_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_suppressions_email_key').on(sql`lower(${t.email})`)],
);

/** Help-desk conversations (Help Scout-style), linked to a user by the customer's email when one matches. */
export const helpdeskConversations = pgTable(
  'helpdesk_conversations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: text('conversation_id').notNull().unique(),
    customerEmail: text('customer_email'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    subject: text('subject'),
    status: text('status'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.userId)],
);
