/**
 * The series event API (spec "Series and events"; contract §7): create (series key), read and
 * update one event of a series, and complete an event's setup. Access (who, which series/event) is
 * decided before these run (access/authorize.ts); these apply the body rules, 403 for a foreign
 * `event_series_id` first, then 409/422.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { events, series as seriesTable } from '../../db/schema/index.js';
import type { Ctx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { asSlugConflict, assertSlugFree, insertEvent, prepareEvent } from './event-create.service.js';
import { checkEventSeriesId, checkWindows, normalizeEventFields } from './event-fields.js';
import type { EventRequestBody } from './event-input.schemas.js';
import { serializeEventFull } from './events.serialize.js';
import type { EventRow, SeriesRow } from './records.service.js';

export const SUPPORT_EMAIL_NEEDED = 'Set a support email before completing the setup';

function targets(ctx: Ctx): { event: EventRow; series: SeriesRow } {
  const { event, series } = ctx.access;
  if (!event || !series) throw new Error('series event service called without a resolved event');
  return { event, series };
}

/** Registrations that are not withdrawn or rejected (Event full `participant_count`). */
async function participantCount(db: Tx, eventId: number): Promise<number> {
  const res = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM registrations
         WHERE event_id = ${eventId} AND status NOT IN ('withdrawn', 'rejected')`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

async function fullBody(db: Tx, event: EventRow, series: SeriesRow) {
  return { event: serializeEventFull(event, series, await participantCount(db, event.id)) };
}

/** POST /series/{s}/events → 201 `{event}`; the series is the key's (contract §7). */
export async function createSeriesEvent(ctx: Ctx, body: EventRequestBody) {
  const series = ctx.access.series;
  if (!series) throw new Error('createSeriesEvent called without a resolved series');
  checkEventSeriesId(body.event.event_series_id, series);
  const prepared = prepareEvent(body.event, ctx.config.operatorDomains);
  try {
    return await ctx.db.transaction(async (tx) => {
      const row = await insertEvent(tx, series, prepared, { principal: ctx.access.principal });
      return { event: serializeEventFull(row, series, 0) };
    });
  } catch (error) {
    throw asSlugConflict(error, prepared.columns.slug);
  }
}

/** GET /series/{s}/events/{e} → `{event}`. */
export function getSeriesEvent(ctx: Ctx) {
  const { event, series } = targets(ctx);
  return fullBody(ctx.db, event, series);
}

/**
 * PATCH /series/{s}/events/{e} → `{event}`: the create rules for every field given (zone-less times
 * read in the new `timezone` when given, else the event's); modules merge into the current ones.
 * Audited `events.update` with the changed field names; bumps `updated_at`. `{event:{}}` changes
 * nothing.
 */
export async function updateSeriesEvent(ctx: Ctx, body: EventRequestBody) {
  const { event, series } = targets(ctx);
  checkEventSeriesId(body.event.event_series_id, series);
  const { columns, modules } = normalizeEventFields(body.event, {
    operatorDomains: ctx.config.operatorDomains,
    currentZone: event.timezone,
  });
  checkWindows({ ...event, ...columns });
  const changed = Object.keys(body.event).filter((k) => k !== 'event_series_id');
  if (changed.length === 0) return fullBody(ctx.db, event, series);
  try {
    return await ctx.db.transaction(async (tx) => {
      if (columns.slug !== undefined) await assertSlugFree(tx, columns.slug, event.id);
      const [row] = await tx
        .update(events)
        .set({
          ...columns,
          ...(modules ? { modules: { ...event.modules, ...modules } } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(events.id, event.id))
        .returning();
      await recordAudit(tx, {
        action: 'events.update',
        principal: ctx.access.principal,
        eventId: event.id,
        seriesId: series.id,
        targetType: 'event',
        targetId: event.id,
        metadata: { fields: changed, ...(modules ? { modules: Object.keys(modules) } : {}) },
      });
      return fullBody(tx, row!, series);
    });
  } catch (error) {
    throw asSlugConflict(error, columns.slug);
  }
}

/**
 * POST /events/{e}/setup/complete → `{event}` with `setup_complete` true (contract §7). 422
 * without a support email. Idempotent: an event already set up is returned unchanged (no audit, no
 * `updated_at` bump); otherwise audited `events.setup_complete`.
 */
export async function completeSetup(ctx: Ctx) {
  const event = ctx.access.event;
  if (!event) throw new Error('completeSetup called without a resolved event');
  if (!event.supportEmail) throw unprocessable(SUPPORT_EMAIL_NEEDED);
  const [series] = await ctx.db.select().from(seriesTable).where(eq(seriesTable.id, event.seriesId));
  if (event.setupComplete) return fullBody(ctx.db, event, series!);
  return ctx.db.transaction(async (tx) => {
    // Conditional: of two concurrent calls one writes and audits, the other reads the result.
    const [row] = await tx
      .update(events)
      .set({ setupComplete: true, updatedAt: sql`now()` })
      .where(and(eq(events.id, event.id), eq(events.setupComplete, false)))
      .returning();
    if (!row) {
      const [current] = await tx.select().from(events).where(eq(events.id, event.id));
      return fullBody(tx, current!, series!);
    }
    await recordAudit(tx, {
      action: 'events.setup_complete',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'event',
      targetId: event.id,
      metadata: { slug: event.slug },
    });
    return fullBody(tx, row, series!);
  });
}
