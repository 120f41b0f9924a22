/**
 * The rules for an event's writable fields (spec "Series and events" POST /series/{s}/events;
 * docs/decisions.md "Series, events and bans"), shared by create and PATCH over HTTP and by `muster events create`. Pure: no
 * database. Every failure is a 422 naming the field.
 */
import type { EventModules } from '../../db/schema/index.js';
import { forbidden, unprocessable } from '../../lib/errors.js';
import { EMAIL_PATTERN, normalizeEmail } from '../../lib/identifiers.js';
import { slugProblem } from '../../lib/slug.js';
import { isoTimestamp } from '../../lib/time.js';
import { canonicalTimeZone, zonedToInstant } from '../../lib/zoned-time.js';
import type { EventFields } from './event-input.schemas.js';
import type { EventRow, SeriesRow } from './records.service.js';

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const REQUIRED = ['name', 'support_email'] as const;
const TIMES = ['starts_at', 'ends_at', 'registration_open_at', 'registration_close_at'] as const;
const TEXTS = ['venue_name', 'location_city', 'location_country', 'location_address'] as const;

/** Column values to write (Drizzle names), as validated and normalised from the wire fields. */
export type EventColumns = Partial<
  Pick<
    EventRow,
    | 'name'
    | 'supportEmail'
    | 'slug'
    | 'timezone'
    | 'startsAt'
    | 'endsAt'
    | 'registrationOpenAt'
    | 'registrationCloseAt'
    | 'venueName'
    | 'locationCity'
    | 'locationCountry'
    | 'locationAddress'
    | 'locationLatitude'
    | 'locationLongitude'
    | 'hotelScanContextId'
    | 'emailRemindersEnabled'
  >
>;

export interface EventChanges {
  columns: EventColumns;
  modules?: Partial<EventModules>;
}

const camel = (field: string) => field.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Why `email` cannot be an event support email (docs/decisions.md "Series, events and bans": exact operator domain), or null. */
export const HOTEL_CONTEXT_PROBLEM = 'hotel_scan_context_id must name a scan context of this event';

export function supportEmailProblem(email: string, operatorDomains: readonly string[]): string | null {
  const value = normalizeEmail(email);
  if (!EMAIL_PATTERN.test(value)) return `support_email is not a valid email address: ${email}`;
  const domain = value.slice(value.lastIndexOf('@') + 1);
  if (!operatorDomains.includes(domain)) {
    return `support_email must use one of the operator domains (${operatorDomains.join(', ')}); got ${domain}`;
  }
  return null;
}

/** 403 when `event_series_id` names a series other than `series` (its own UUID or slug is accepted). */
export function checkEventSeriesId(ref: string | undefined, series: Pick<SeriesRow, 'id' | 'slug'>): void {
  if (ref === undefined) return;
  const value = ref.trim();
  if (value.toLowerCase() === series.id.toLowerCase() || value === series.slug) return;
  throw forbidden('event_series_id names another series; the series is decided by the API key');
}

/** 422 naming every required field (docs/decisions.md "Series, events and bans": name, support_email) that is missing or blank. */
export function checkRequired(fields: EventFields): void {
  const missing = REQUIRED.filter((f) => (fields[f] ?? '').trim() === '');
  if (missing.length > 0) throw unprocessable(`Missing required fields: ${missing.join(', ')}`);
}

/**
 * Validates and normalises the fields given: name trimmed (not blank), support_email trimmed and
 * lower-cased on an operator domain, slug by the slug rules, timezone an IANA name, date-times read
 * in the event's zone (the new `timezone` when given, else `currentZone`), latitude/longitude by the
 * schema, `modules.visa_application_url` an http(s) URL. Fields not given are left out.
 */
export function normalizeEventFields(
  fields: EventFields,
  opts: { operatorDomains: readonly string[]; currentZone: string },
): EventChanges {
  const columns: EventColumns = {};
  for (const [field, value] of Object.entries({ ...fields, ...prefixed(fields.modules) })) {
    // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
    if (typeof value === 'string' && value.includes('\u0000'))
      throw unprocessable(`${field} must not contain NUL characters`);
  }
  if (fields.name !== undefined) {
    const name = fields.name.trim();
    if (name === '') throw unprocessable('name cannot be blank');
    columns.name = name;
  }
  if (fields.support_email !== undefined) {
    const problem = supportEmailProblem(fields.support_email, opts.operatorDomains);
    if (problem) throw unprocessable(problem);
    columns.supportEmail = normalizeEmail(fields.support_email);
  }
  if (fields.slug !== undefined) {
    const problem = slugProblem(fields.slug);
    if (problem) throw unprocessable(problem);
    columns.slug = fields.slug;
  }
  if (fields.timezone !== undefined) {
    const zone = canonicalTimeZone(fields.timezone.trim());
    if (!zone)
      throw unprocessable(
        `timezone must be an IANA time zone name such as Europe/London; got ${fields.timezone}`,
      );
    columns.timezone = zone;
  }
  const zone = columns.timezone ?? opts.currentZone;
  for (const field of TIMES) {
    const value = fields[field];
    if (value === undefined) continue;
    const instant = value === null ? null : zonedToInstant(value.trim(), zone);
    if (value !== null && instant === null) throw unprocessable(`${field} must be an ISO 8601 date-time`);
    columns[camel(field) as 'startsAt'] = instant;
  }
  for (const field of TEXTS) {
    const value = fields[field];
    if (value === undefined) continue;
    const text = value?.trim() ?? '';
    columns[camel(field) as 'venueName'] = text === '' ? null : text;
  }
  if (fields.location_latitude !== undefined) columns.locationLatitude = fields.location_latitude;
  if (fields.location_longitude !== undefined) columns.locationLongitude = fields.location_longitude;
  if (fields.email_reminders_enabled !== undefined)
    columns.emailRemindersEnabled = fields.email_reminders_enabled;
  // Checked against the event's scan contexts by the caller (it needs the database).
  if (fields.hotel_scan_context_id !== undefined)
    columns.hotelScanContextId = fields.hotel_scan_context_id?.toLowerCase() ?? null;
  if (fields.modules === undefined) return { columns };
  const modules: Partial<EventModules> = { ...fields.modules };
  const url = fields.modules.visa_application_url;
  if (typeof url === 'string') {
    const trimmed = url.trim();
    if (trimmed !== '' && !HTTP_URL.test(trimmed))
      throw unprocessable('modules.visa_application_url must be an http(s) URL');
    modules.visa_application_url = trimmed === '' ? null : trimmed;
  }
  return { columns, modules };
}

function prefixed(modules: EventFields['modules']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(modules ?? {}).map(([k, v]) => [`modules.${k}`, v]));
}

/** 422 when a window ends before it starts (checked on the values the event will have). */
export function checkWindows(
  e: Pick<EventRow, 'startsAt' | 'endsAt' | 'registrationOpenAt' | 'registrationCloseAt'>,
) {
  // Stored values arrive as PostgreSQL text (`2026-07-10 08:00:00+00`), new ones as ISO 8601.
  const ms = (v: string) => Date.parse(/^\d{4}-\d{2}-\d{2} /.test(v) ? isoTimestamp(v)! : v);
  const before = (a: string | null, b: string | null) => a !== null && b !== null && ms(b) < ms(a);
  if (before(e.startsAt, e.endsAt)) throw unprocessable('ends_at must not be before starts_at');
  if (before(e.registrationOpenAt, e.registrationCloseAt))
    throw unprocessable('registration_close_at must not be before registration_open_at');
}
