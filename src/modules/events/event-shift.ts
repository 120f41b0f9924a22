/**
 * Moving an event's dates to a new start date (docs/series-events.md "New event and copy"): every
 * date-time moves by the same number of calendar days in the event's time zone, keeping its
 * wall-clock time (09:00 stays 09:00 across a change to or from summer time).
 */
import { isoTimestamp } from '../../lib/time.js';
import { zonedToInstant, zoneOffsetMs } from '../../lib/zoned-time.js';

const DAY_MS = 86_400_000;

/** Is `value` a real calendar date written YYYY-MM-DD (2027-02-30 is not)? */
export function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/**
 * The wall-clock date-time (`2026-07-01T09:00:00.000`, no zone) of `instant` in `zone`; `instant`
 * as stored (`2026-07-01 08:00:00+00`) or ISO 8601.
 */
function wallClock(instant: string, zone: string): string {
  const ms = Date.parse(isoTimestamp(instant)!);
  return new Date(ms + zoneOffsetMs(ms, zone)).toISOString().slice(0, -1);
}

/** Whole days from the date (in `zone`) of `from` to the calendar date `toDate` (YYYY-MM-DD). */
export function dayOffset(from: string, toDate: string, zone: string): number {
  const fromDate = wallClock(from, zone).slice(0, 10);
  return Math.round((Date.parse(`${toDate}T00:00:00Z`) - Date.parse(`${fromDate}T00:00:00Z`)) / DAY_MS);
}

/** `instant` moved by `days` calendar days in `zone`, at the same wall-clock time (ISO 8601 UTC); null stays null. */
export function shiftDays(instant: string | null, days: number, zone: string): string | null {
  if (!instant) return null;
  const wall = new Date(Date.parse(`${wallClock(instant, zone)}Z`) + days * DAY_MS)
    .toISOString()
    .slice(0, -1);
  return zonedToInstant(wall, zone);
}
