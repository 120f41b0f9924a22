/**
 * Copying an earlier event of a series (docs/series-events.md "New event and copy"): a new draft
 * with the earlier event's settings, its dates moved to a new start date, and its set-up content:
 * modules, scan contexts (with their refuse lists and time windows, the hotel context kept
 * pointing at its copy), consent documents (the current version of each, custom ones included, as version 1), email
 * wording, groups (without members) and the team's event roles. Participants, invitations,
 * announcements, webhooks, API keys, images and retention policies are not copied.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { actorUserIdOf } from '../../access/principal.js';
import type { Tx } from '../../db/client.js';
import {
  emailTemplates,
  eventConsentDocuments,
  eventRoles,
  events,
  groups,
  scanContexts,
} from '../../db/schema/index.js';
import type { SeriesCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { prepareEvent } from './event-create.service.js';
import type { EventFields } from './event-input.schemas.js';
import { dayOffset, isDate, shiftDays } from './event-shift.js';
import { insertInSeries } from './events.service.js';
import type { EventRow } from './records.service.js';

export interface CopyInput {
  /** The UUID of the earlier event, of the context's series. */
  source_event_id: string;
  /** The new event's name (required, trimmed). */
  name: string;
  /** The new start date (YYYY-MM-DD, in the event's time zone); needed when the earlier event has one. */
  starts_on?: string;
}

/** The earlier event's fields for the new one, its dates moved by `days` calendar days. */
function copiedFields(source: EventRow, name: string, days: number): EventFields {
  const zone = source.timezone;
  return {
    name,
    support_email: source.supportEmail ?? '',
    timezone: zone,
    starts_at: shiftDays(source.startsAt, days, zone),
    ends_at: shiftDays(source.endsAt, days, zone),
    registration_open_at: shiftDays(source.registrationOpenAt, days, zone),
    registration_close_at: shiftDays(source.registrationCloseAt, days, zone),
    venue_name: source.venueName,
    location_city: source.locationCity,
    location_country: source.locationCountry,
    location_address: source.locationAddress,
    location_latitude: source.locationLatitude,
    location_longitude: source.locationLongitude,
    modules: source.modules,
    default_language: source.defaultLanguage,
    languages: source.languages,
    email_reminders_enabled: source.emailRemindersEnabled,
  };
}

/** Scan contexts in order, windows moved; the new event's default context is replaced. */
async function copyScanContexts(tx: Tx, source: EventRow, target: EventRow, days: number): Promise<void> {
  await tx.delete(scanContexts).where(eq(scanContexts.eventId, target.id));
  const rows = await tx
    .select()
    .from(scanContexts)
    .where(eq(scanContexts.eventId, source.id))
    .orderBy(asc(scanContexts.position), asc(scanContexts.id));
  for (const c of rows) {
    const [copy] = await tx
      .insert(scanContexts)
      .values({
        eventId: target.id,
        name: c.name,
        checksIn: c.checksIn,
        isTravelPickup: c.isTravelPickup,
        refuse: c.refuse,
        tracksPresence: c.tracksPresence,
        position: c.position,
        startsAt: shiftDays(c.startsAt, days, source.timezone),
        endsAt: shiftDays(c.endsAt, days, source.timezone),
      })
      .returning({ uuid: scanContexts.uuid });
    if (source.hotelScanContextId === c.uuid)
      await tx.update(events).set({ hotelScanContextId: copy!.uuid }).where(eq(events.id, target.id));
  }
}

/**
 * The current version of each consent document, as version 1 of the new event's: the built-in
 * types' saved texts and the custom documents (with whether each is required).
 */
async function copyConsentDocuments(tx: Tx, source: EventRow, target: EventRow): Promise<void> {
  await tx.execute(sql`
    INSERT INTO event_consent_documents (event_id, consent_type, version, title, body, translations, required)
    SELECT DISTINCT ON (consent_type) ${target.id}, consent_type, 1, title, body, translations, required
      FROM ${eventConsentDocuments} WHERE event_id = ${source.id}
     ORDER BY consent_type, version DESC`);
}

/** Copies the earlier event's content into the new one. */
async function copyContent(
  tx: Tx,
  source: EventRow,
  target: EventRow,
  days: number,
  actor: number | null,
): Promise<void> {
  await copyScanContexts(tx, source, target, days);
  await copyConsentDocuments(tx, source, target);
  const templates = await tx.select().from(emailTemplates).where(eq(emailTemplates.eventId, source.id));
  if (templates.length > 0)
    await tx.insert(emailTemplates).values(
      templates.map((t) => ({
        eventId: target.id,
        template: t.template,
        subject: t.subject,
        body: t.body,
        translations: t.translations,
        updatedByUserId: actor,
      })),
    );
  const groupRows = await tx.select().from(groups).where(eq(groups.eventId, source.id));
  if (groupRows.length > 0)
    await tx
      .insert(groups)
      .values(groupRows.map((g) => ({ eventId: target.id, name: g.name, color: g.color })));
  const roles = await tx.select().from(eventRoles).where(eq(eventRoles.eventId, source.id));
  if (roles.length > 0)
    await tx
      .insert(eventRoles)
      .values(roles.map((r) => ({ eventId: target.id, userId: r.userId, role: r.role })))
      .onConflictDoNothing();
}

/**
 * Creates a copy of an earlier event of the context's series as a new draft (see the file
 * comment), audited `events.create` with `copied_from` `{event_id, uuid, slug}` and `shifted_days`. Throws 404 when the earlier event is not of this series, 422 for a blank name, a
 * missing or malformed start date (when the earlier event has one), or any event rule the copy
 * breaks (e.g. the earlier event has no support email). Returns the new event's row.
 */
export async function copyEvent(ctx: SeriesCtx, input: CopyInput): Promise<EventRow> {
  const [source] = await ctx.db
    .select()
    .from(events)
    .where(and(eq(events.uuid, input.source_event_id), eq(events.seriesId, ctx.access.series.id)));
  if (!source) throw notFound('Event not found');
  const startsOn = input.starts_on?.trim() ?? '';
  if (startsOn !== '' && !isDate(startsOn))
    throw unprocessable('Give the new start date as a date, e.g. 2027-07-10');
  if (source.startsAt && startsOn === '') throw unprocessable('Choose the new start date');
  const days = source.startsAt && startsOn ? dayOffset(source.startsAt, startsOn, source.timezone) : 0;
  const prepared = prepareEvent(copiedFields(source, input.name, days), ctx.config.operatorDomains);
  const metadata = {
    copied_from: { event_id: source.id, uuid: source.uuid, slug: source.slug },
    shifted_days: days,
  };
  return insertInSeries(ctx, prepared, {
    metadata,
    after: async (tx, row) => {
      await copyContent(tx, source, row, days, actorUserIdOf(ctx.access.principal));
    },
  });
}
