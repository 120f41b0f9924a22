/**
 * Flight numbers (docs/travel.md "Flight check"): an IATA airline designator (two characters, letters
 * or a letter and a digit) and 1–4 digits, with an optional one-letter suffix. Spaces, hyphens and
 * leading zeros are dropped and letters upper-cased: `BA 0117` → `BA117`, `u2-12` → `U212`.
 */
import type { FlightCode } from '../../integrations/flights/provider.js';

const CODE = /^([A-Z][A-Z0-9]|[0-9][A-Z])([0-9]{1,4})([A-Z]?)$/;

/** The normalised flight number, or null when `raw` is not one. */
export function parseFlightCode(raw: string): FlightCode | null {
  const m = CODE.exec(raw.replace(/[\s-]+/g, '').toUpperCase());
  if (!m) return null;
  const number = `${Number(m[2])}${m[3]}`;
  if (number.startsWith('0')) return null; // flight number 0 does not exist
  return { airline: m[1]!, number, code: `${m[1]}${number}` };
}

/** `YYYY-MM-DD` that names a real calendar day. */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}
