/**
 * Phone numbers (docs/participant-record.md "Phone numbers"), with google-libphonenumber:
 * - stored as E.164 (`+447700900123`): `normalisePhone` parses what a person typed, with the
 *   event's country as the default region (so `07700 900123` is read as a UK number for a UK
 *   event), and accepts a number whose length is possible for its country (not only local
 *   dialling). Validity against the numbering plan is not required: fictional ranges such as
 *   07700 900xxx are in use for tests and demos;
 * - shown in international format (`+44 7700 900123`, `formatPhone`);
 * - found by any run of its digits (`phoneSearchDigits`: the term's digits, and, when the term
 *   parses as a number of the event's region, its national significant number, so `07700 900123`
 *   finds `+447700900123`).
 * `regionOf` turns the event's `location_country` (free text: a code such as `GB` or a name such
 *   as `United Kingdom`) into a region code, or null when it names none.
 */
import libphonenumber from 'google-libphonenumber';
import { isOneOf } from './narrow.js';

const { PhoneNumberUtil, PhoneNumberFormat } = libphonenumber;
const util = PhoneNumberUtil.getInstance();
const IS_POSSIBLE = PhoneNumberUtil.ValidationResult.IS_POSSIBLE;

/** What a typed phone number may hold: an optional leading +, digits and separators. */
const PHONE_CHARS = /^\+?[\s(]*[0-9][0-9\s().\-/]*$/;

/** Names people write for a country that are not its English short name. */
const ALIASES: Record<string, string> = {
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
};

let byName: Map<string, string> | null = null;

function names(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  for (const code of util.getSupportedRegions()) {
    const name = display.of(code);
    if (name) byName.set(name.toLowerCase(), code);
  }
  for (const [alias, code] of Object.entries(ALIASES)) byName.set(alias, code);
  return byName;
}

/** The region code (`GB`) of a country as an event stores it (`GB`, `gb`, `United Kingdom`), or null. */
export function regionOf(country: string | null | undefined): string | null {
  const text = country?.trim().replace(/\.$/, '');
  if (!text) return null;
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    return isOneOf(util.getSupportedRegions(), code) ? code : null;
  }
  return names().get(text.toLowerCase()) ?? null;
}

/** E.164 of `raw` read with `region` as the default country, or null when it is not a phone number. */
export function normalisePhone(raw: string, region: string | null): string | null {
  const text = raw.trim();
  if (!PHONE_CHARS.test(text)) return null;
  try {
    const n = util.parse(text, region ?? 'ZZ');
    if (util.isPossibleNumberWithReason(n) !== IS_POSSIBLE) return null;
    return util.format(n, PhoneNumberFormat.E164);
  } catch {
    return null;
  }
}

/** `+44 7700 900123` for a stored number; a value that is not E.164 (not yet migrated) as it is. */
export function formatPhone(stored: string | null | undefined): string {
  if (!stored) return '';
  if (!/^\+[1-9][0-9]{6,14}$/.test(stored)) return stored;
  try {
    return util.format(util.parse(stored, 'ZZ'), PhoneNumberFormat.INTERNATIONAL);
  } catch {
    return stored;
  }
}

/**
 * The digit runs a search term may match inside a stored E.164 number, or [] when the term is not
 * a phone number fragment (fewer than 4 digits, or letters in it). `07700 900123` with region GB →
 * [`07700900123`, `7700900123`].
 */
export function phoneSearchDigits(term: string, region: string | null): string[] {
  const text = term.trim();
  if (!PHONE_CHARS.test(text)) return [];
  const digits = text.replace(/[^0-9]/g, '');
  if (digits.length < 4) return [];
  const runs = new Set([digits]);
  const e164 = normalisePhone(text, region);
  if (e164) {
    const national = String(util.parse(e164, 'ZZ').getNationalNumber());
    runs.add(national);
  }
  return [...runs];
}
