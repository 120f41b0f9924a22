/**
 * Helpers shared by the organiser pages (announcements, audit trail, bans, groups, exports): the
 * event page frame, plain dates for people, form values, and turning a service's 4xx into the
 * page's error summary (so a bad form re-renders with its message instead of an error page).
 */

import type { AccessContext } from '../../access/authorize.js';
import type { EventRow } from '../../access/resolve.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import type { FormBody } from '../web/web.schemas.js';
import { eventNav } from './nav.js';

/** A page's title: the page, then the event or series it belongs to (`Emails · Summer camp`). */
export const titleOf = (page: string, name: string): string => staffText('layout.title_of', { page, name });

/** The title of a page shown again with the errors of its form (`Error: …`). */
export const errorTitle = (errors: unknown, title: string): string =>
  errors ? staffText('layout.error_title', { title }) : title;

/** The layout data of an event page: its title, the event and its navigation (`path` is current). */
export function eventFrame(access: AccessContext & { event: EventRow }, path: string, title: string) {
  return {
    title: titleOf(title, access.event.name),
    event: access.event,
    nav: eventNav(access, access.event.id, path),
  };
}

/** One formatter per zone: the audit, recipient and blast lists format a time per row. */
const WHEN_FORMATTERS = new Map<string, Intl.DateTimeFormat>();

/** "26 Nov 2026, 14:30" in `zone` (default UTC, named in the text then); '' for null. */
export function when(iso: string | null | undefined, zone = 'UTC'): string {
  if (!iso) return '';
  let format = WHEN_FORMATTERS.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    WHEN_FORMATTERS.set(zone, format);
  }
  const text = format.format(new Date(iso));
  return zone === 'UTC' ? `${text} UTC` : text;
}

/** One value of a form field (the first when repeated); '' when absent. */
export function field(body: FormBody, name: string): string {
  const v = body[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** Every value of a repeated form field (checkbox groups). */
export function fields(body: FormBody, name: string): string[] {
  const v = body[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * Runs a service call; a 4xx ApiError other than 401/403/404 (bad input, conflict) becomes
 * `{error}` for the page to show in its error summary. Anything else is thrown (error page).
 */
export async function attempt<T>(call: () => Promise<T>): Promise<{ ok: T } | { error: string }> {
  try {
    return { ok: await call() };
  } catch (error) {
    if (error instanceof ApiError && [409, 422].includes(error.statusCode)) return { error: error.message };
    throw error;
  }
}
