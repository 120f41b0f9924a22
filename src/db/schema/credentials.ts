/**
 * The four credential kinds (docs/decisions.md "Credentials and roles"). Only SHA-256 digests of secrets are stored; the
 * secret itself is shown once at issue. Tested by test/access/matrix.test.ts and test/unit/secrets.test.ts.
 */
import { index, integer, pgTable, serial, text, uuid } from 'drizzle-orm/pg-core';
import { series, users } from './accounts.js';
import { createdAt, ts } from './common.js';
import { events } from './events.js';

export const mobileTokens = pgTable(
  'mobile_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenDigest: text('token_digest').notNull().unique(),
    deviceName: text('device_name'),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    replacedById: integer('replaced_by_id'),
    lastUsedAt: ts('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.userId)],
);

export const globalApiTokens = pgTable('global_api_tokens', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  tokenDigest: text('token_digest').notNull().unique(),
  /** [] = the owner's full access; ['bans:write'] = POST /bans only. */
  scopes: text('scopes').array().notNull().default([]),
  expiresAt: ts('expires_at'),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  createdAt: createdAt(),
});

export const seriesApiKeys = pgTable('series_api_keys', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  seriesId: uuid('series_id')
    .notNull()
    .references(() => series.id, { onDelete: 'cascade' }),
  ownerUserId: integer('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  tokenDigest: text('token_digest').notNull().unique(),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  createdAt: createdAt(),
});

export const eventApiKeys = pgTable('event_api_keys', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  eventId: integer('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  ownerUserId: integer('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  tokenDigest: text('token_digest').notNull().unique(),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  createdAt: createdAt(),
});
