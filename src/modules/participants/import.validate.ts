/**
 * Validation of import items against ImportItemSchema, with messages that name the item (index
 * and email) and the field, e.g. `items[3] (ann@example.org): personal.date_of_birth must be a
 * valid date (YYYY-MM-DD)`. Every problem is an ApiError 422, never a crash.
 */
import { Value } from 'typebox/value';
import { type ApiError, unprocessable } from '../../lib/errors.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { isRecord, propOf } from '../../lib/narrow.js';
import { type ImportItem, ImportItemSchema } from './record/item.schema.js';
import {
  describeSchemaErrors,
  type Problem,
  problemsError,
  type SchemaError,
  schemaErrors,
} from './record/problems.js';

/** At most this many problems are listed in one error (the rest are counted). */
const MAX_PROBLEMS = 10;
/** Items per import call; a larger file should be split. */
export const MAX_IMPORT_ITEMS = 50_000;

/** Schema errors of one item: each top-level field on its own, `email` required (see schemaErrors). */
function itemErrors(item: unknown): SchemaError[] {
  if (!isRecord(item)) return [...Value.Errors(ImportItemSchema, item)];
  return schemaErrors(ImportItemSchema, item, ['email']);
}

/** `items[3]` + a problem's field (`item` is the item itself). */
const itemField = (index: number, field: string) =>
  field === 'item' ? `items[${index}]` : `items[${index}].${field}`;

function label(index: number, raw: unknown): string {
  const email = propOf(raw, 'email');
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
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  const items: ImportItem[] = [];
  raw.forEach((value: unknown, index) => {
    const item =
      isRecord(value) && typeof value.email === 'string'
        ? { ...value, email: normalizeEmail(value.email) }
        : value;
    const errors = itemErrors(item);
    if (errors.length > 0) {
      const name = naming.item?.(index) ?? label(index, value);
      for (const p of describeSchemaErrors(errors, naming.field)) {
        problems.push({ field: itemField(index, p.field), message: `${name}: ${p.message}` });
      }
      return;
    }
    const valid = item as ImportItem;
    const first = seen.get(valid.email);
    if (first !== undefined) {
      const name = naming.item?.(index) ?? label(index, value);
      problems.push({
        field: `items[${index}].email`,
        message: `${name}: email duplicates ${naming.item?.(first) ?? `items[${first}]`}`,
      });
      return;
    }
    seen.set(valid.email, index);
    items.push(valid);
  });
  if (problems.length > 0) throw importError(problems);
  return items;
}

/**
 * One 422 for a list of problems: `error` lists up to 10 of them (`Invalid import (N problems): …;
 * and M more`), `problems` carries the same 10 as `{field, message}`.
 */
export function importError(problems: Problem[]): ApiError {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
  const head = problems.length === 1 ? 'Invalid import' : `Invalid import (${problems.length} problems)`;
  const error = problemsError(shown, head);
  return more ? unprocessable(`${error.message}${more}`, error.extra) : error;
}
