/** Scans (contract §5) and push tokens. */
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
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

/** Expo, APNs or FCM device tokens; a token belongs to at most one user. */
export const pushTokens = pgTable('push_tokens', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  token: text('token').notNull().unique(),
  platform: text('platform', { enum: ['expo', 'apns', 'fcm'] }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  lastUsedAt: ts('last_used_at'),
});
