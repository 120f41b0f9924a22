/** Scans (docs/decisions.md "Check-in") and push tokens. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  json,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, ts, updatedAt } from './common.js';
import { events, scanContexts } from './events.js';
import { registrations } from './participants.js';

/** Every scan is stored: `scanned_at` is the client's time, `created_at` the server's. */
export const scans = pgTable(
  'scans',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    registrationId: integer('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    scanContextId: integer('scan_context_id')
      .notNull()
      .references(() => scanContexts.id, { onDelete: 'cascade' }),
    scannerUserId: integer('scanner_user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source', { enum: ['qr', 'nfc', 'manual'] })
      .notNull()
      .default('qr'),
    clientScanId: text('client_scan_id'),
    outcome: text('outcome', { enum: ['scanned', 'already_scanned'] }).notNull(),
    scannedAt: ts('scanned_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('scans_registration_context').on(t.registrationId, t.scanContextId, t.scannedAt),
    index('scans_event_created').on(t.eventId, t.createdAt),
    uniqueIndex('scans_registration_client_scan_id')
      .on(t.registrationId, t.clientScanId)
      .where(sql`client_scan_id IS NOT NULL`),
  ],
);

/**
 * Durable live feed of scans and undos (GET /events/{e}/scans/stream), written in the same
 * transaction as the scan or undo. `created_at` is the writing transaction's start, so readers page
 * in (created_at, id) order up to the sync high-water mark and never skip a late commit. `payload`
 * is the scan exactly as GET /scans shows it (json keeps the text as written).
 */
export const scanFeed = pgTable(
  'scan_feed',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['scan', 'scan_undone'] }).notNull(),
    scanId: bigint('scan_id', { mode: 'number' }).notNull(),
    scanContextId: integer('scan_context_id').notNull(),
    payload: json('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('scan_feed_event_created').on(t.eventId, t.createdAt, t.id)],
);

/** Expo, APNs or FCM device tokens; a token belongs to at most one user (looked up by user for pushes). */
export const pushTokens = pgTable(
  'push_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token').notNull().unique(),
    platform: text('platform', { enum: ['expo', 'apns', 'fcm'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index().on(t.userId)],
);
