/** Series read paths (spec "Series and events"; docs/decisions.md "Series, events and bans"): GET /series, /series/{s}, /series/{s}/events. */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { isUserPrincipal } from '../../access/principal.js';
import { events, series, seriesRoles } from '../../db/schema/index.js';
import type { Ctx, SeriesCtx } from '../../deps.js';
import { serializeEventSummary, serializeSeries } from './events.serialize.js';

/** Series key → its own series; global admin → all; other users → series where they hold a series role. */
export async function listSeries(ctx: Ctx) {
  const p = ctx.access.principal;
  let rows: (typeof series.$inferSelect)[];
  if (p.kind === 'series_key') rows = await ctx.db.select().from(series).where(eq(series.id, p.seriesId));
  else if (isUserPrincipal(p) && p.user.globalAdmin)
    rows = await ctx.db.select().from(series).orderBy(asc(series.name));
  else {
    const userId = isUserPrincipal(p) ? p.user.id : -1;
    const member = ctx.db
      .select({ id: seriesRoles.seriesId })
      .from(seriesRoles)
      .where(eq(seriesRoles.userId, userId));
    rows = await ctx.db.select().from(series).where(inArray(series.id, member)).orderBy(asc(series.name));
  }
  return { series: rows.map(serializeSeries) };
}

export function getSeries(ctx: SeriesCtx) {
  return { series: serializeSeries(ctx.access.series) };
}

/** Every event of the series, earliest start first, events without a start date last. */
export async function listSeriesEvents(ctx: SeriesCtx) {
  const s = ctx.access.series;
  const rows = await ctx.db
    .select()
    .from(events)
    .where(eq(events.seriesId, s.id))
    .orderBy(sql`${events.startsAt} ASC NULLS LAST`, asc(events.name), asc(events.id));
  return { events: rows.map((e) => serializeEventSummary(e, s)) };
}
