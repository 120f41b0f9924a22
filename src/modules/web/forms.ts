/**
 * Form posts ↔ record PATCH bodies for the section pages (sections.ts). A posted field named by its
 * PATCH path becomes that value: text trimmed (blank → null, so it clears), checkboxes true/false,
 * `datetime-local` values read as UTC; a repeated group with every field blank is left out. The
 * service's 422 problems (`{field, message}`) become per-field errors, each linked to its input
 * (error summary) with the field's label in place of the path.
 */

import { BASE_LANGUAGE, translator } from '../../lib/i18n/index.js';
import { isRecord, propOf } from '../../lib/narrow.js';
import type { Problem } from '../participants/record/problems.js';
import { type Field, fieldId, type Group, type Section } from './sections.js';
import type { FormBody } from './web.schemas.js';

export type Values = Record<string, string | boolean>;
export interface PageErrorItem {
  /** The input's id (for `href="#…"` and aria-describedby), when the message names a field. */
  field?: string;
  message: string;
}
type Json = Record<string, unknown>;

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

function fieldsOf(section: Section): Field[] {
  return section.groups.flatMap((g) => g.fields);
}

/** What the person typed, for re-rendering the form. */
export function valuesFromBody(section: Section, body: FormBody): Values {
  const out: Values = {};
  for (const field of fieldsOf(section)) {
    const raw = first(body[field.name]);
    out[field.name] = field.type === 'checkbox' ? raw !== undefined : (raw ?? '');
  }
  return out;
}

/** The value at `path` (`personal.address.city`, `guardians[0].name`) of a JSON object, or undefined. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split(/\.|\[(\d+)\]\.?/).filter((p) => p !== undefined && p !== '')) {
    cur = Array.isArray(cur) ? cur[Number(part)] : propOf(cur, part);
  }
  return cur;
}

/** The stored record's values (ParticipantDetail) for each field of the section. */
export function valuesFromDetail(section: Section, detail: Json): Values {
  const out: Values = {};
  for (const field of fieldsOf(section)) {
    const value = getPath(detail, field.name);
    if (field.type === 'checkbox') out[field.name] = value === true;
    else if (field.type === 'datetime' && typeof value === 'string') out[field.name] = value.slice(0, 16);
    else out[field.name] = value === null || value === undefined ? '' : String(value);
  }
  return out;
}

function setPath(obj: Json, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (isRecord(next)) cur = next;
    else {
      const created: Json = {};
      cur[part] = created;
      cur = created;
    }
  }
  cur[parts.at(-1)!] = value;
}

function convert(field: Field, raw: string | boolean): unknown {
  if (field.type === 'checkbox') return raw === true;
  const text = String(raw).trim();
  if (text === '') return null;
  if (field.type === 'datetime') return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text) ? `${text}:00Z` : text;
  return text;
}

/** Page-side slot index of each list item sent (list key → sent index → slot index). */
export type SlotMap = Record<string, number[]>;

/**
 * The PATCH body for a section's form post. `detail` supplies what the page does not show but a
 * whole-object section must keep (accessibility keys the form has no field for).
 */
export function formToPatch(section: Section, values: Values, detail: Json): { patch: Json; slots: SlotMap } {
  const patch: Json = {};
  const slots: SlotMap = {};
  const lists: Record<string, Json[]> = {};
  for (const group of section.groups) {
    if (group.list) {
      const { key, index } = group.list;
      const item: Json = {};
      let filled = false;
      for (const field of group.fields) {
        const value = convert(field, values[field.name] ?? '');
        const leaf = field.name.slice(field.name.lastIndexOf('.') + 1);
        if (value !== null) {
          item[leaf] = value;
          filled = true;
        } else if (leaf !== 'name' && leaf !== 'phone' && leaf !== 'relationship') item[leaf] = null;
      }
      lists[key] ??= [];
      const list = lists[key];
      patch[key] = list;
      slots[key] ??= [];
      if (filled) {
        if (key === 'guardians') item.is_primary = list.length === 0;
        list.push(item);
        slots[key].push(index);
      }
      continue;
    }
    if (group.leg) {
      legToPatch(patch, group, values, detail);
      continue;
    }
    for (const field of group.fields) setPath(patch, field.name, convert(field, values[field.name] ?? ''));
  }
  for (const key of ['travel_inbound', 'travel_outbound']) {
    const travel = patch[key];
    const blank = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);
    if (isRecord(travel) && Object.values(travel).every(blank)) delete patch[key];
  }
  if (isRecord(patch.accessibility)) {
    const stored = isRecord(detail.accessibility) ? detail.accessibility : {};
    patch.accessibility = Object.fromEntries(
      Object.entries({ ...stored, ...patch.accessibility }).filter(([, v]) => v !== null && v !== false),
    );
  }
  return { patch, slots };
}

const LEG_KEYS = ['flight_code', 'departure_airport', 'arrival_airport', 'departure_time', 'arrival_time'];

/**
 * The journey's first flight (`travel_*.legs[0]`) into the PATCH's `legs`, which replace the stored
 * ones as a whole: the form's flight first (left out when every field is blank), then the stored
 * later legs as they are (connections entered by staff or an import), so the form never drops them.
 */
function legToPatch(patch: Json, group: Group, values: Values, detail: Json): void {
  const key = group.leg!;
  const leg: Json = {};
  for (const field of group.fields) {
    leg[field.name.slice(field.name.lastIndexOf('.') + 1)] = convert(field, values[field.name] ?? '');
  }
  const storedLegs = propOf(detail[key], 'legs');
  const stored = Array.isArray(storedLegs) ? storedLegs.filter(isRecord) : [];
  const later = stored.slice(1).map((l) => Object.fromEntries(LEG_KEYS.map((k) => [k, l[k] ?? null])));
  const legs = Object.values(leg).some((v) => v !== null) ? [leg, ...later] : later;
  if (legs.length === 0 && stored.length === 0) return;
  const current = patch[key];
  const travel: Json = isRecord(current) ? current : {};
  patch[key] = travel;
  travel.legs = legs;
  // A flight given with the mode left empty: the journey is by plane.
  if (legs.length > 0 && (travel.mode === null || travel.mode === undefined)) travel.mode = 'plane';
}

/**
 * Required fields left blank: checked on the page, before the service, with plain messages
 * (the field's catalog message, `Enter your legal first name`; staff pages pass `whose = 'the'`).
 */
export function missingRequired(section: Section, values: Values, whose = 'your'): PageErrorItem[] {
  return fieldsOf(section)
    .filter((f) => f.required && String(values[f.name] ?? '').trim() === '')
    .map((f) => ({
      field: fieldId(f.name),
      message:
        whose === 'your' && f.requiredMessage ? f.requiredMessage : `Enter ${whose} ${f.label.toLowerCase()}`,
    }));
}

/**
 * A service 422's problems as errors linked to this section's fields: the message reads with the
 * field's label in place of its path; a problem of no field on this page stays unlinked.
 */
export function errorsFromProblems(
  section: Section,
  problems: Problem[],
  slots: SlotMap,
  lang = BASE_LANGUAGE,
): PageErrorItem[] {
  const fields = fieldsOf(section);
  return problems.map(({ field: at, message }) => {
    // Sent index → the slot on the page (blank slots were not sent).
    const path = at.replace(/^(emergency_contacts|guardians)\[(\d+)\]/, (_all, key: string, i: string) => {
      const slot = slots[key]?.[Number(i)];
      return `${key}[${slot ?? i}]`;
    });
    const field = fields.find((f) => f.name === path) ?? fields.find((f) => f.name.startsWith(`${path}.`));
    if (!field) return { message };
    if (lang !== BASE_LANGUAGE)
      return { field: fieldId(field.name), message: problemIn(lang, field, at, message) };
    if (!message.startsWith(`${at} `) && !message.startsWith(`${at}: `))
      return { field: fieldId(field.name), message };
    const label = field.name === path ? field.label : path.replace(/[_.[\]]+/g, ' ').trim();
    return {
      field: fieldId(field.name),
      message: `${label} ${message.slice(at.length).replace(/^:?\s/, '')}`,
    };
  });
}

/** What the record service says after the field's path, → the catalog's `problems.*` sentence. */
const PROBLEMS: [RegExp, string][] = [
  [/^is required$/, 'problems.required'],
  [/^must be a phone number/, 'problems.phone'],
  [/^must not be in the future$/, 'problems.future'],
  [/^must be 1900-01-01 or later$/, 'problems.too_early'],
  [/^must not be before /, 'problems.before'],
  [/^must be a valid date/, 'problems.date'],
  [/^must be a valid email/, 'problems.email'],
  [/^must be an ISO 8601 date-time/, 'problems.date_time'],
  [/^duplicates /, 'problems.duplicate'],
  [/^must (NOT have more|be at most)/, 'problems.too_long'],
];

/** A service problem about `field` as a sentence in `lang`: `Fecha de nacimiento: no puede ser futura`. */
function problemIn(lang: string, field: Field, at: string, message: string): string {
  const rest = message.startsWith(`${at} `) ? message.slice(at.length + 1) : message.replace(/^[^ ]+: /, '');
  const key = PROBLEMS.find(([re]) => re.test(rest))?.[1] ?? 'problems.invalid';
  const t = translator(lang);
  return t('problems.line', { label: field.label, problem: t(key) });
}
