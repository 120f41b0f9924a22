/**
 * Retention policies (docs/privacy.md "Retention and shredding"): per event, which kinds of data to
 * shred and how many days after the event ends. The daily `retention-prune` job applies due
 * policies; `applied_at` is when it last did.
 */
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, ts, updatedAt } from './common.js';
import { events } from './events.js';

export const retentionCategories = ['sensitive', 'pii', 'travel', 'notes', 'scans', 'uploads'] as const;
export type RetentionCategory = (typeof retentionCategories)[number];

export const retentionPolicies = pgTable(
  'retention_policies',
  {
    eventId: integer('event_id')
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    categories: text('categories').array().notNull(),
    daysAfterEnd: integer('days_after_end').notNull(),
    appliedAt: ts('applied_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('retention_days_range', sql`${t.daysAfterEnd} BETWEEN 0 AND 3650`)],
);
