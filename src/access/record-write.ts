/**
 * Which parts of a participant's record a staff member may write (docs/decisions.md "Staff status changes and edits": who
 * may write which section follows who may read it, see "Credentials and roles"). Data, applied by the staff-edit service
 * (`PATCH /events/{e}/participants/{pe}`) to the keys of the request body before validation:
 * - `sensitive`: the sections and top-level fields only global admins and the event's safeguarding
 *   leads read (medical, dietary, accessibility, safeguarding, the registration's own emergency
 *   contacts). The medical and dietary flags (`has_anaphylaxis_risk`, `requires_refrigeration`,
 *   `cross_contamination_risk`) are shown to every participants role but belong to those sections,
 *   so writing them needs the sensitive grant too (docs/participant-record.md).
 * - `pii`: fields hidden from `limited` (phone, date of birth, address, travel origin address) and
 *   the guardian list (every guardian entry carries the guardian's email, a PII field).
 * `read_only` and API keys never reach this (the gate refuses them first).
 * Pure; pinned by test/access/rows/staff-record.ts.
 */
import type { Visibility } from './policy.js';

/** Top-level RecordPatch keys needing `visibility.sensitive`. */
export const SENSITIVE_WRITE_KEYS: readonly string[] = [
  'allergies',
  'medical_conditions',
  'medications',
  'life_threatening_allergies',
  'has_anaphylaxis_risk',
  'requires_refrigeration',
  'diet_type',
  'cross_contamination_risk',
  'medical_detail',
  'dietary_detail',
  'accessibility',
  'safeguarding_detail',
  'emergency_contacts',
];

/** Top-level RecordPatch keys needing `visibility.pii`. */
export const PII_WRITE_KEYS: readonly string[] = ['phone', 'guardians'];

/** Keys inside a section needing `visibility.pii` (section → keys). */
export const PII_WRITE_NESTED: Readonly<Record<string, readonly string[]>> = {
  personal: ['date_of_birth', 'address'],
  travel_inbound: ['origin_address'],
  travel_outbound: ['origin_address'],
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The field paths of an (unvalidated) PATCH body that a caller with visibility `v` may not write,
 * e.g. `['dietary_detail', 'personal.date_of_birth']`; empty when everything may be written (or the
 * body is not an object: validation refuses it next).
 */
export function forbiddenWrites(body: unknown, v: Visibility): string[] {
  if (!isObject(body)) return [];
  const out: string[] = [];
  for (const key of Object.keys(body)) {
    if (!v.sensitive && SENSITIVE_WRITE_KEYS.includes(key)) out.push(key);
    else if (!v.pii && PII_WRITE_KEYS.includes(key)) out.push(key);
    const nested = PII_WRITE_NESTED[key];
    const section = body[key];
    if (!v.pii && nested && isObject(section)) {
      for (const inner of nested) if (inner in section) out.push(`${key}.${inner}`);
    }
  }
  return out;
}

/**
 * Whether a caller with visibility `v` may read the value of record field `path`
 * (`dietary_detail.intolerances`, `phone`, `personal.date_of_birth`): who may write a field is who
 * may read it, so the same data answers (the participant page's history shows old → new values only
 * where this is true). The risk flags count as sensitive here, like for writing.
 */
export function mayReadField(path: string, v: Visibility): boolean {
  const [top = '', inner] = path.replace(/\[\d+\]/g, '').split('.');
  if (SENSITIVE_WRITE_KEYS.includes(top)) return v.sensitive;
  if (PII_WRITE_KEYS.includes(top)) return v.pii;
  if (inner !== undefined && PII_WRITE_NESTED[top]?.includes(inner)) return v.pii;
  return true;
}

/** Whether a caller with visibility `v` may write top-level key `key` at all (the page's Edit buttons). */
export function mayWriteKey(key: string, v: Visibility): boolean {
  if (SENSITIVE_WRITE_KEYS.includes(key)) return v.sensitive;
  if (PII_WRITE_KEYS.includes(key)) return v.pii;
  return true;
}
