/**
 * Field validation of a record write by the participant or a guardian (docs/decisions.md "Registration side": "Validation
 * per field (dates, enums, E.164-ish phones, IATA codes) → 422 naming the field"). First the schema
 * (types, enums, formats, unknown fields), then the rules a schema cannot say. Every problem is
 * listed in one 422 `{error, problems}` (problems.ts), e.g. error `guardians[0].phone must be a
 * phone number in international format, e.g. +447700900123; personal.date_of_birth must not be in
 * the future` with `problems: [{field: 'guardians[0].phone', message: …}, …]`.
 * Returns the patch normalised: airport codes and flight codes upper-cased, emails lower-cased,
 * phone numbers in E.164 (read with the event's country as the default region: lib/phone.ts).
 */
import type { Static, TObject } from 'typebox';
import { Value } from 'typebox/value';
import { normalizeEmail } from '../../../lib/identifiers.js';
import { isRecord } from '../../../lib/narrow.js';
import { normalisePhone } from '../../../lib/phone.js';
import { describeSchemaErrors, type Problem, problemsError, schemaErrors } from './problems.js';
import {
  PortalPatch,
  type PortalPatchInput,
  RecordPatch,
  type RecordPatchInput,
  type TravelPatchInput,
} from './sections.schemas.js';

/** Is `value` a phone number (read with `region` as the default country)? */
export function isPhone(value: string, region: string | null = null): boolean {
  return normalisePhone(value, region) !== null;
}
const IATA_AIRPORT = /^[A-Z]{3}$/;
/** IATA flight designator: 2-character airline code, optional letter, 1..4 digits, optional suffix. */
const FLIGHT_CODE = /^([A-Z][0-9]|[0-9][A-Z]|[A-Z]{2})[A-Z]?[0-9]{1,4}[A-Z]?$/;

export const PHONE_MESSAGE = 'must be a phone number in international format, e.g. +447700900123';

/**
 * The path (`personal.notes`, `guardians[0].name`) of the first string or key holding a NUL
 * character, which PostgreSQL text and jsonb cannot store (it would be a database error), or null.
 */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = nulPath(item, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return at;
      const found = nulPath(item, at);
      if (found) return found;
    }
  }
  return null;
}

/** 422 when any string of the body holds a NUL character (named by its field). */
export function assertNoNul(body: unknown): void {
  const at = nulPath(body);
  if (at) throw problemsError([{ field: at, message: `${at} must not contain NUL characters` }]);
}

/** A problem of `field` whose message reads `<field> <text>`. */
const problem = (field: string, text: string): Problem => ({ field, message: `${field} ${text}` });

function travelProblems(name: string, travel: TravelPatchInput, problems: Problem[]): void {
  const before = (a: string | null | undefined, b: string | null | undefined) =>
    a && b && Date.parse(b) < Date.parse(a);
  if (before(travel.departure_time, travel.arrival_time))
    problems.push(problem(`${name}.arrival_time`, `must not be before ${name}.departure_time`));
  travel.legs?.forEach((leg, i) => {
    const at = `${name}.legs[${i}]`;
    for (const key of ['departure_airport', 'arrival_airport'] as const) {
      const code = leg[key]?.trim().toUpperCase();
      if (code === undefined) continue;
      if (!IATA_AIRPORT.test(code))
        problems.push(problem(`${at}.${key}`, 'must be a 3-letter IATA airport code, e.g. LHR'));
      else leg[key] = code;
    }
    if (leg.flight_code) {
      const code = leg.flight_code.replace(/\s+/g, '').toUpperCase();
      if (!FLIGHT_CODE.test(code))
        problems.push(problem(`${at}.flight_code`, 'must be an IATA flight number, e.g. BA117'));
      else leg.flight_code = code;
    }
    if (before(leg.departure_time, leg.arrival_time))
      problems.push(problem(`${at}.arrival_time`, `must not be before ${at}.departure_time`));
  });
}

/**
 * Normalises the phone at `holder[key]` to E.164 in place (lib/phone.ts normalisePhone, the one
 * normaliser every phone write goes through), or returns the problem naming `field`.
 * Blank and absent values are left as they are (blank clears the field).
 */
export function phoneAt<K extends string>(
  holder: { [k in K]?: string | null },
  key: K,
  field: string,
  region: string | null,
): Problem[] {
  const value = holder[key];
  if (value === null || value === undefined || value.trim() === '') return [];
  const e164 = normalisePhone(value, region);
  if (e164 === null) return [problem(field, PHONE_MESSAGE)];
  holder[key] = e164;
  return [];
}

/** Rules beyond the schema; mutates `patch` to normalise codes, emails and phones. */
function ruleProblems(patch: RecordPatchInput, today: string, region: string | null): Problem[] {
  const problems: Problem[] = [];
  problems.push(...phoneAt(patch, 'phone', 'phone', region));
  const dob = patch.personal?.date_of_birth;
  const dobField = 'personal.date_of_birth';
  if (dob && dob > today) problems.push(problem(dobField, 'must not be in the future'));
  if (dob && dob < '1900-01-01') problems.push(problem(dobField, 'must be 1900-01-01 or later'));
  const stay = patch.accommodation;
  if (stay?.check_in_date && stay.check_out_date && stay.check_out_date < stay.check_in_date)
    problems.push(problem('accommodation.check_out_date', 'must not be before accommodation.check_in_date'));
  patch.emergency_contacts?.forEach((c, i) => {
    problems.push(...phoneAt(c, 'phone', `emergency_contacts[${i}].phone`, region));
  });
  if (patch.guardians) {
    const seen = new Map<string, number>();
    patch.guardians.forEach((g, i) => {
      problems.push(...phoneAt(g, 'phone', `guardians[${i}].phone`, region));
      g.email = normalizeEmail(g.email);
      const first = seen.get(g.email);
      if (first !== undefined)
        problems.push(problem(`guardians[${i}].email`, `duplicates guardians[${first}].email`));
      seen.set(g.email, i);
    });
    if (patch.guardians.filter((g) => g.is_primary).length > 1)
      problems.push({ field: 'guardians', message: 'guardians: at most one guardian can be is_primary' });
  }
  if (patch.travel_inbound) travelProblems('travel_inbound', patch.travel_inbound, problems);
  if (patch.travel_outbound) travelProblems('travel_outbound', patch.travel_outbound, problems);
  return problems;
}

/**
 * Checks an untrusted PATCH body. `today` is the caller's date (YYYY-MM-DD, UTC) for the date of
 * birth rule; `region` the event's country code for phone numbers written without one (null: a
 * number must carry its country code). Throws ApiError 422 naming every bad field; returns the
 * normalised patch.
 */
export function validateRecordPatch(
  body: unknown,
  today: string,
  region: string | null = null,
): RecordPatchInput {
  if (!isRecord(body))
    throw problemsError([
      { field: 'body', message: 'The request body must be a JSON object of record sections' },
    ]);
  assertNoNul(body);
  const copy = structuredClone(body);
  // Guardian emails are the match key: surrounding spaces are not a reason to refuse one.
  if (Array.isArray(copy.guardians)) {
    for (const g of copy.guardians) {
      if (isRecord(g) && typeof g.email === 'string') g.email = g.email.trim();
    }
  }
  const patch = checked(RecordPatch, copy);
  const problems = ruleProblems(patch, today, region);
  if (problems.length > 0) throw problemsError(problems);
  return patch;
}

/**
 * `body` typed by `schema` once it has no schema error (each problem named in one 422). The
 * whole-value check confirms what the per-key errors found, so the type is checked, not assumed.
 */
function checked<T extends TObject>(schema: T, body: Record<string, unknown>): Static<T> {
  const errors = schemaErrors(schema, body);
  if (errors.length === 0 && Value.Check(schema, body)) return body;
  throw problemsError(describeSchemaErrors(errors, undefined, 'body'));
}

/**
 * Checks an untrusted guardian-portal PATCH body (the guardian's own details, permissions and
 * emergency contacts; PortalPatch). Throws ApiError 422 `{error, problems}` naming every bad field.
 */
export function validatePortalPatch(body: unknown, region: string | null = null): PortalPatchInput {
  if (!isRecord(body))
    throw problemsError([{ field: 'body', message: 'The request body must be a JSON object' }]);
  assertNoNul(body);
  const patch = checked(PortalPatch, body);
  const problems = phoneAt(patch, 'phone', 'phone', region);
  patch.emergency_contacts?.forEach((c, i) => {
    if (!c.phone?.trim()) problems.push(problem(`emergency_contacts[${i}].phone`, PHONE_MESSAGE));
    else problems.push(...phoneAt(c, 'phone', `emergency_contacts[${i}].phone`, region));
  });
  if (problems.length > 0) throw problemsError(problems);
  return patch;
}
