/** Live flight tracking (docs/travel.md "Live tracking"): per-leg tracking state and the call budget. */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts, updatedAt } from './common.js';
import { travelLegs } from './records.js';

/**
 * One row per tracked leg, apart from `travel_legs` so that a poll that changes nothing writes no
 * leg row (a leg row's change bumps the registration's `updated_at` for delta sync).
 * `landed_notified_at`: set once, in the transaction that announces the landing (push + feed).
 */
export const travelLegTracking = pgTable('travel_leg_tracking', {
  legId: integer('leg_id')
    .primaryKey()
    .references(() => travelLegs.id, { onDelete: 'cascade' }),
  lastTrackedAt: ts('last_tracked_at'),
  landedNotifiedAt: ts('landed_notified_at'),
  /** The provider's last answer for the leg: `ok`, `unknown` (no such flight that day) or `error`. */
  lastResult: text('last_result'),
});

/**
 * Provider-call counters of the tracking job: `hour:2026-11-27T14`, `day:2026-11-27` (calls made in
 * that UTC hour/day), and `backoff` (`calls` = consecutive provider errors, `until` = no calls
 * before then).
 */
export const flightTrackingUsage = pgTable('flight_tracking_usage', {
  bucket: text('bucket').primaryKey(),
  calls: integer('calls').notNull().default(0),
  until: ts('until'),
  updatedAt: updatedAt(),
});
