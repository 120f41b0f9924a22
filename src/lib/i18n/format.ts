/**
 * Dates, numbers and lists for a reader (docs/languages.md "Dates and numbers"): always through
 * `Intl` in the reader's locale (the catalog's `_meta.intl`) and the event's time zone; the catalog
 * only arranges the pieces (`format.when`: English "{weekday} {day} {month} {year} at {hour}:{minute}
 * {zone}", Spanish "{date}, {time} ({zone})"). Pure.
 */
import { isoTimestamp } from '../time.js';
import { languageInfo, translator } from './catalog.js';

/** ISO 8601 or PostgreSQL timestamptz text → epoch ms, or NaN. */
function epochOf(instant: string): number {
  if (!/^\d{4}-\d{2}-\d{2} /.test(instant)) return Date.parse(instant);
  try {
    return Date.parse(isoTimestamp(instant) ?? instant);
  } catch {
    return Number.NaN;
  }
}

function parts(locale: string, options: Intl.DateTimeFormatOptions, ms: number, timeZone: string) {
  let list: Intl.DateTimeFormatPart[];
  try {
    list = new Intl.DateTimeFormat(locale, { ...options, timeZone }).formatToParts(ms);
  } catch {
    list = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).formatToParts(ms);
  }
  return list;
}

const joined = (list: Intl.DateTimeFormatPart[]) => list.map((p) => p.value).join('');

/**
 * An instant written out for a reader of `lang` in `timeZone`, with the zone's long name:
 * `Saturday 26 December 2026 at 02:47 Eastern Standard Time`,
 * `sábado, 26 de diciembre de 2026, 02:47 (hora estándar oriental)`. An unknown zone falls back to
 * UTC; an unreadable value is returned unchanged.
 */
export function formatWhen(instant: string, lang: string, timeZone: string): string {
  const ms = epochOf(instant);
  if (Number.isNaN(ms)) return instant;
  const locale = languageInfo(lang).intl;
  const dateParts = parts(
    locale,
    { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
    ms,
    timeZone,
  );
  const timeParts = parts(locale, { hour: '2-digit', minute: '2-digit' }, ms, timeZone);
  const zoneParts = parts(locale, { timeZoneName: 'long' }, ms, timeZone);
  const part = (list: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) =>
    list.find((p) => p.type === type)?.value ?? '';
  return translator(lang)('format.when', {
    date: joined(dateParts),
    time: joined(timeParts),
    zone: part(zoneParts, 'timeZoneName'),
    weekday: part(dateParts, 'weekday'),
    day: part(dateParts, 'day'),
    month: part(dateParts, 'month'),
    year: part(dateParts, 'year'),
    hour: part(timeParts, 'hour'),
    minute: part(timeParts, 'minute'),
  });
}

/** A calendar date (`YYYY-MM-DD`, no time zone) in words: `4 March 2012`, `4 de marzo de 2012`. */
export function formatDate(date: string, lang: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Intl.DateTimeFormat(languageInfo(lang).intl, { dateStyle: 'long', timeZone: 'UTC' }).format(ms);
}

/** An instant as a short date and time in `timeZone` (`26 Dec 2026, 02:47`). */
export function formatShortWhen(instant: string, lang: string, timeZone: string): string {
  const ms = epochOf(instant);
  if (Number.isNaN(ms)) return instant;
  return joined(parts(languageInfo(lang).intl, { dateStyle: 'medium', timeStyle: 'short' }, ms, timeZone));
}

export function formatNumber(value: number, lang: string): string {
  return new Intl.NumberFormat(languageInfo(lang).intl).format(value);
}

/** `a, b and c` / `a, b y c` (Intl.ListFormat, conjunction). */
export function formatList(items: readonly string[], lang: string): string {
  return new Intl.ListFormat(languageInfo(lang).intl, { style: 'long', type: 'conjunction' }).format(items);
}
