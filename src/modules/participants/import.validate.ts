/**
 * Validation of import items against ImportItemSchema, with messages that name the item (index
 * and email) and the field, e.g. `items[3] (ann@example.org): personal.date_of_birth must be a
 * valid date (YYYY-MM-DD)`. Every problem is an ApiError 422, never a crash.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { type ApiError, unprocessable } from '../../lib/errors.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { type ImportItem, ImportItemSchema } from './import.schema.js';

/** At most this many problems are listed in one error (the rest are counted). */
const MAX_PROBLEMS = 10;
/** Items per import call; a larger file should be split. */
export const MAX_IMPORT_ITEMS = 50_000;

export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** `/guardians/0/email` → `guardians[0].email`. */
export function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function describeAlternative(e: SchemaError): string | null {
  if (e.keyword === 'type') {
    const type = String(e.params.type);
    return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  }
  if (e.keyword === 'const') return JSON.stringify(e.params.allowedValue);
  if (e.keyword === 'format') return formatText(String(e.params.format));
  return null;
}

function formatText(format: string): string {
  if (format === 'date') return 'a valid date (YYYY-MM-DD)';
  if (format === 'date-time') return 'an ISO 8601 date-time with a time zone (e.g. 2026-05-01T09:30:00Z)';
  if (format === 'email') return 'a valid email address';
  return `a valid ${format}`;
}

/** Turns TypeBox errors of one value into human messages, one per field (`root` names the value itself). */
export function describeSchemaErrors(
  errors: SchemaError[],
  rename: (path: string) => string = (p) => p,
  root = 'item',
): string[] {
  const groups = new Map<string, SchemaError[]>();
  for (const e of errors) {
    if (e.keyword === 'boolean') continue; // duplicate of the parent's additionalProperties error
    const list = groups.get(e.instancePath) ?? [];
    list.push(e);
    groups.set(e.instancePath, list);
  }
  const out: string[] = [];
  for (const [path, list] of groups) {
    const field = fieldPath(path) && rename(fieldPath(path));
    const subject = field || root;
    const extra = list.find((e) => e.keyword === 'additionalProperties');
    if (extra) {
      const names = (extra.params.additionalProperties as string[]) ?? [];
      out.push(`${subject} has unknown field${names.length === 1 ? '' : 's'}: ${names.join(', ')}`);
    }
    for (const e of list.filter((x) => x.keyword === 'required')) {
      for (const name of (e.params.requiredProperties as string[]) ?? []) {
        out.push(`${rename(field ? `${fieldPath(path)}.${name}` : name)} is required`);
      }
    }
    const rest = list.filter((x) => x.keyword !== 'additionalProperties' && x.keyword !== 'required');
    if (rest.length === 0) continue;
    if (rest.some((x) => x.keyword === 'anyOf')) {
      const alternatives = rest.map(describeAlternative).filter((x): x is string => x !== null);
      // Only "null" left: the other branch failed deeper, and those errors are reported instead.
      if (alternatives.length === 1 && alternatives[0] === 'null') continue;
      const consts = rest.filter((x) => x.keyword === 'const').length;
      out.push(
        consts > 1
          ? `${subject} must be one of ${alternatives.join(', ')}`
          : `${subject} must be ${alternatives.join(' or ')}`,
      );
    } else {
      const e = rest[0]!;
      out.push(
        `${subject} ${e.keyword === 'format' ? `must be ${formatText(String(e.params.format))}` : e.message}`,
      );
    }
  }
  return out;
}

/**
 * Schema errors of one item. TypeBox stops after a few errors per call (maxErrors, a global
 * setting left alone here), so each top-level field is checked on its own: one bad field cannot
 * hide another, and a union (status, nullable fields) is reported with all its alternatives.
 */
function itemErrors(item: unknown): SchemaError[] {
  if (!item || typeof item !== 'object' || Array.isArray(item)) {
    return [...Value.Errors(ImportItemSchema, item)] as SchemaError[];
  }
  const props: Record<string, TSchema> = ImportItemSchema.properties;
  const out: SchemaError[] = [];
  const unknown = Object.keys(item).filter((key) => !Object.hasOwn(props, key));
  if (unknown.length > 0) {
    out.push({
      keyword: 'additionalProperties',
      instancePath: '',
      params: { additionalProperties: unknown },
      message: '',
    });
  }
  if ((item as { email?: unknown }).email === undefined) {
    out.push({
      keyword: 'required',
      instancePath: '',
      params: { requiredProperties: ['email'] },
      message: '',
    });
  }
  for (const [key, value] of Object.entries(item)) {
    if (!Object.hasOwn(props, key) || value === undefined) continue;
    for (const e of Value.Errors(props[key]!, value) as SchemaError[]) {
      out.push({ ...e, instancePath: `/${key}${e.instancePath}` });
    }
  }
  return out;
}

function label(index: number, raw: unknown): string {
  const email = (raw as { email?: unknown } | null)?.email;
  return typeof email === 'string' && email.trim() ? `items[${index}] (${email.trim()})` : `items[${index}]`;
}

/** How problems name an item and a field (the CSV parser names rows and columns instead). */
export interface ProblemNaming {
  item?: (index: number) => string;
  field?: (path: string) => string;
}

/**
 * Checks an untrusted value (a parsed JSON file, CSV rows mapped to items) and returns it as
 * ImportItem[] with emails trimmed and lowercased.
 * Throws ApiError 422 when it is not an array, is empty, is too large, when any item breaks the
 * schema, or when two items share an email; `extra.problems` lists the problems (at most 10).
 */
export function validateImportItems(raw: unknown, naming: ProblemNaming = {}): ImportItem[] {
  if (!Array.isArray(raw)) throw unprocessable('The import must be a JSON array of participant objects');
  if (raw.length === 0) throw unprocessable('The import contains no participants');
  if (raw.length > MAX_IMPORT_ITEMS) {
    throw unprocessable(`The import has ${raw.length} participants; at most ${MAX_IMPORT_ITEMS} per file`);
  }
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const items: ImportItem[] = [];
  raw.forEach((value: unknown, index) => {
    const item =
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      typeof (value as ImportItem).email === 'string'
        ? { ...(value as ImportItem), email: normalizeEmail((value as ImportItem).email) }
        : value;
    const errors = itemErrors(item);
    if (errors.length > 0) {
      const name = naming.item?.(index) ?? label(index, value);
      for (const message of describeSchemaErrors(errors, naming.field)) problems.push(`${name}: ${message}`);
      return;
    }
    const valid = item as ImportItem;
    const first = seen.get(valid.email);
    if (first !== undefined) {
      const name = naming.item?.(index) ?? label(index, value);
      problems.push(`${name}: email duplicates ${naming.item?.(first) ?? `items[${first}]`}`);
      return;
    }
    seen.set(valid.email, index);
    items.push(valid);
  });
  if (problems.length > 0) throw importError(problems);
  return items;
}

/** One 422 for a list of problems: the message lists up to 10 of them. */
export function importError(problems: string[]): ApiError {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
  const head = problems.length === 1 ? 'Invalid import' : `Invalid import (${problems.length} problems)`;
  return unprocessable(`${head}: ${shown.join('; ')}${more}`, { problems: shown });
}
