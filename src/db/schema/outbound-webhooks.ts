/**
 * Outbound webhooks (docs/webhooks.md "Outbound"): endpoints of an event or a series, the outbox of
 * messages (written in the transaction of the change, by the `muster_webhook_emit()` SQL function),
 * one delivery per message and endpoint (written by the dispatcher's fan-out; its durable queue),
 * and the attempt log.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { series, users } from './accounts.js';
import { createdAt, ts, updatedAt } from './common.js';
import { events } from './events.js';

/**
 * A receiver URL of exactly one event or one series. `secret_sealed` is the signing secret sealed
 * under MUSTER_SECRET_KEY (lib/sealed.ts); after a rotation the previous secret keeps signing
 * beside the new one until `previous_secret_expires_at`. `failing_since`: the first failure of the
 * current run of failures (null after a success); five days of it switch the endpoint off.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    seriesId: uuid('series_id').references(() => series.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    failingSince: ts('failing_since'),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index().on(t.eventId),
    index().on(t.seriesId),
    index().on(t.createdByUserId),
    check('webhook_endpoints_one_owner', sql`(${t.eventId} IS NULL) <> (${t.seriesId} IS NULL)`),
  ],
);

/**
 * One thing that happened: `msg_id` is the `webhook-id` every delivery of it carries; `body` the
 * exact JSON sent. `endpoint_ids`: the endpoints subscribed when it was written; `awaiting_fanout`
 * true until the dispatcher has turned it into their deliveries (one statement, fanout.ts). A ping
 * writes its one delivery itself (never awaiting).
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    msgId: text('msg_id').notNull().unique(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    body: text('body').notNull(),
    endpointIds: integer('endpoint_ids').array().notNull().default(sql`'{}'::integer[]`),
    awaitingFanout: boolean('awaiting_fanout').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.eventId),
    index('webhook_messages_awaiting_fanout').on(t.id).where(sql`awaiting_fanout`),
  ],
);

/**
 * One message for one endpoint. status: pending | succeeded | failed. A claim moves
 * `next_attempt_at` forward by the lease, so a delivery whose worker died is due again after it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_message').on(t.endpointId, t.messageId),
    index().on(t.messageId),
    index('webhook_deliveries_due').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/** The delivery log: one row per HTTP attempt (or refusal before connecting). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.endpointId, t.id), index().on(t.deliveryId)],
);
