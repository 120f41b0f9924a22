/** Audit log: who (user and credential kind/id/name) did what to which event/series/record. */
import { bigserial, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './common.js';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    action: text('action').notNull(),
    actorUserId: integer('actor_user_id'),
    credentialKind: text('credential_kind'),
    credentialId: text('credential_id'),
    credentialName: text('credential_name'),
    eventId: integer('event_id'),
    seriesId: uuid('series_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.eventId, t.createdAt), index().on(t.action)],
);
