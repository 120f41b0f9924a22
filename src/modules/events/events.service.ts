/**
 * The series event API (spec "Series and events"; docs/decisions.md "Series, events and bans"): create (series key), read and
 * update one event of a series, and complete an event's setup. Access (who, which series/event) is
 * decided before these run (access/authorize.ts); these apply the body rules, 403 for a foreign
 * `event_series_id` first, then 409/422.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { events, series as seriesTable } from '../../db/schema/index.js';
import type { EventCtx, SeriesCtx, SeriesEventCtx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import {
  assertSlugFree,
  insertEvent,
  type PreparedEvent,
  prepareEvent,
  slugConflict,
} from './event-create.service.js';
import {
  checkEventSeriesId,
  checkWindows,
  HOTEL_CONTEXT_PROBLEM,
  normalizeEventFields,
} from './event-fields.js';
import type { EventRequestBody } from './event-input.schemas.js';
import { serializeEventFull } from './events.serialize.js';
import type { EventRow, SeriesRow } from './records.service.js';

const GENERATED_SLUG_ATTEMPTS = 10;
export const SUPPORT_EMAIL_NEEDED = 'Set a support email before completing the setup';

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

/** 422 unless `uuid` names a scan context of the event. */
async function assertOwnScanContext(db: Tx, eventId: number, uuid: string): Promise<void> {
  const res = await db.execute(
    sql`SELECT 1 FROM scan_contexts WHERE event_id = ${eventId} AND uuid = ${uuid}`,
  );
  if (res.rows.length === 0) throw unprocessable(HOTEL_CONTEXT_PROBLEM);
}

/** POST /series/{s}/events → 201 `{event}`; the series is the key's (docs/decisions.md "Series, events and bans"). */
export async function createSeriesEvent(ctx: SeriesCtx, body: EventRequestBody) {
  const series = ctx.access.series;
  checkEventSeriesId(body.event.event_series_id, series);
  const prepared = prepareEvent(body.event, ctx.config.operatorDomains);
  const row = await insertInSeries(ctx, prepared);
  return { event: serializeEventFull(row, series, 0) };
}

/**
 * Inserts a prepared event into the context's series (insertEvent: a draft, audited
 * `events.create`), then runs `after` in the same transaction (a copy's content). A slug generated
 * from the name can lose a race with a parallel create: the next free one is tried. Throws 409 for
 * a given slug that is taken.
 */
export async function insertInSeries(
  ctx: SeriesCtx,
  prepared: PreparedEvent,
  opts: { metadata?: Record<string, unknown>; after?: (tx: Tx, row: EventRow) => Promise<void> } = {},
): Promise<EventRow> {
  const series = ctx.access.series;
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        const row = await insertEvent(tx, series, prepared, {
          principal: ctx.access.principal,
          ...(opts.metadata ? { metadata: opts.metadata } : {}),
        });
        await opts.after?.(tx, row);
        return row;
      });
    } catch (error) {
      const taken = slugConflict(error, prepared.columns.slug);
      if (!taken) throw error;
      if (prepared.columns.slug !== undefined || attempt >= GENERATED_SLUG_ATTEMPTS) throw taken;
    }
  }
}

/** GET /series/{s}/events/{e} → `{event}`. */
export function getSeriesEvent(ctx: SeriesEventCtx) {
  const { event, series } = ctx.access;
  return fullBody(ctx.db, event, series);
}

/**
 * PATCH /series/{s}/events/{e} → `{event}`: the create rules for every field given (zone-less times
 * read in the new `timezone` when given, else the event's); modules merge into the current ones.
 * Audited `events.update` with the changed field names; bumps `updated_at`. `{event:{}}` changes
 * nothing.
 */
export async function updateSeriesEvent(ctx: SeriesEventCtx, body: EventRequestBody) {
  const { event, series } = ctx.access;
  checkEventSeriesId(body.event.event_series_id, series);
  const { columns, modules } = normalizeEventFields(body.event, {
    operatorDomains: ctx.config.operatorDomains,
    currentZone: event.timezone,
    currentLanguages: { defaultLanguage: event.defaultLanguage, languages: event.languages },
  });
  checkWindows({ ...event, ...columns });
  const changed = Object.keys(body.event).filter((k) => k !== 'event_series_id');
  if (changed.length === 0) return fullBody(ctx.db, event, series);
  try {
    return await ctx.db.transaction(async (tx) => {
      if (columns.slug !== undefined) await assertSlugFree(tx, columns.slug, event.id);
      if (columns.hotelScanContextId) await assertOwnScanContext(tx, event.id, columns.hotelScanContextId);
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
    throw slugConflict(error, columns.slug) ?? error;
  }
}

/**
 * The PATCH rules for an event reached by `{event_id}` alone (the setup wizard's pages): loads the
 * event's series, then `updateSeriesEvent` — same validation, audit and answer.
 */
export async function updateEvent(ctx: EventCtx, body: EventRequestBody) {
  const [series] = await ctx.db
    .select()
    .from(seriesTable)
    .where(eq(seriesTable.id, ctx.access.event.seriesId));
  return updateSeriesEvent({ ...ctx, access: { ...ctx.access, series: series! } }, body);
}

/**
 * POST /events/{e}/setup/complete → `{event}` with `setup_complete` true (docs/decisions.md "Series, events and bans"). 422
 * without a support email. Idempotent: an event already set up is returned unchanged (no audit, no
 * `updated_at` bump); otherwise audited `events.setup_complete`.
 */
export async function completeSetup(ctx: EventCtx) {
  const event = ctx.access.event;
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
