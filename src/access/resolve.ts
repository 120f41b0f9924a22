/**
 * Path targets and roles: `{event_id}` (numeric id, UUID, or slug where allowed; docs/decisions.md "Identifiers") and
 * `{series_id}` (UUID, slug or `current`; docs/decisions.md "Series, events and bans"), and the caller's roles on them.
 */
import { and, eq, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { eventRoles, events, series, seriesRoles } from '../db/schema/index.js';
import { badRequest, notFound } from '../lib/errors.js';
import { UUID_PATTERN } from '../lib/identifiers.js';
import type { Roles } from './policy.js';
import type { Principal } from './principal.js';

export type EventRow = typeof events.$inferSelect;
export type SeriesRow = typeof series.$inferSelect;

const INT = /^[0-9]{1,9}$/;

export const EVENT_NOT_FOUND = 'Event not found';
export const SERIES_NOT_FOUND = 'Series not found';

/** PostgreSQL text cannot hold NUL: such a path segment names nothing (404, not a database error). */
const hasNul = (ref: string) => ref.includes('\u0000');

/** How an `{event_id}` path segment names its event: the column and the value to match. */
export type EventRef = { by: 'id'; value: number } | { by: 'uuid' | 'slug'; value: string };

/** The column and value `ref` names an event by (id, UUID, or slug if allowed); null: it names none. */
export function eventRef(ref: string, allowSlug: boolean): EventRef | null {
  if (hasNul(ref)) return null;
  if (INT.test(ref)) return { by: 'id', value: Number(ref) };
  if (UUID_PATTERN.test(ref)) return { by: 'uuid', value: ref.toLowerCase() };
  if (allowSlug) return { by: 'slug', value: ref };
  return null;
}

/** The condition selecting the event `ref` names (id, UUID, or slug if allowed); null: it names none. */
export function eventWhere(ref: string, allowSlug: boolean): SQL | null {
  const named = eventRef(ref, allowSlug);
  return named ? eq(events[named.by], named.value) : null;
}

export async function resolveEvent(db: Tx, ref: string, allowSlug: boolean): Promise<EventRow> {
  const where = eventWhere(ref, allowSlug);
  if (!where) throw notFound(EVENT_NOT_FOUND);
  const [row] = await db.select().from(events).where(where);
  if (!row) throw notFound(EVENT_NOT_FOUND);
  return row;
}

/** `{event_id}` under `/series/{s}/events/`: numeric id, UUID or slug of an event of `series`, else 404. */
export async function resolveEventInSeries(db: Tx, ref: string, series: SeriesRow): Promise<EventRow> {
  const where = eventWhere(ref, true);
  if (!where) throw notFound(EVENT_NOT_FOUND);
  const [row] = await db
    .select()
    .from(events)
    .where(and(where, eq(events.seriesId, series.id)));
  if (!row) throw notFound(EVENT_NOT_FOUND);
  return row;
}

export async function resolveSeries(db: Tx, ref: string, principal: Principal): Promise<SeriesRow> {
  let where: SQL;
  if (ref === 'current') {
    // `current` is valid for a series API key only (spec); other kinds that may use the endpoint get 400.
    if (principal.kind !== 'series_key') throw badRequest('"current" can only be used with a series API key');
    where = eq(series.id, principal.seriesId);
  } else if (UUID_PATTERN.test(ref)) where = eq(series.id, ref.toLowerCase());
  else if (hasNul(ref)) throw notFound(SERIES_NOT_FOUND);
  else where = eq(series.slug, ref);
  const [row] = await db.select().from(series).where(where);
  if (!row) throw notFound(SERIES_NOT_FOUND);
  return row;
}

/** The user's event roles on `event` plus series roles on its series (or on `seriesId` alone). */
export async function loadRoles(
  db: Tx,
  userId: number,
  target: { eventId?: number; seriesId: string },
): Promise<Roles> {
  const [eventRows, seriesRows] = await Promise.all([
    target.eventId === undefined
      ? Promise.resolve([])
      : db
          .select({ role: eventRoles.role })
          .from(eventRoles)
          .where(and(eq(eventRoles.userId, userId), eq(eventRoles.eventId, target.eventId))),
    db
      .select({ role: seriesRoles.role })
      .from(seriesRoles)
      .where(and(eq(seriesRoles.userId, userId), eq(seriesRoles.seriesId, target.seriesId))),
  ]);
  return {
    event: new Set(eventRows.map((r) => r.role)),
    series: new Set(seriesRows.map((r) => r.role)),
  };
}
