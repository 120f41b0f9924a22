/**
 * Field problems of a participant-record write, kept as data until the edge renders them.
 *
 * A problem is `{field, message}`: `field` is the path a machine matches (`personal.date_of_birth`,
 * `guardians[0].phone`, `items[3].email`; `body` or `item` for the value itself) and `message` is
 * the complete human sentence, naming the field as the API has always named it
 * (`guardians[0].phone must be a phone number in international format, e.g. +447700900123`).
 * A 422 carries both: `{error: <the messages joined by "; ">, problems: [...]}`; web forms show
 * each message beside its field and all of them in the summary at the top.
 */
import type { TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { type ApiError, unprocessable } from '../../../lib/errors.js';
import { propOf } from '../../../lib/narrow.js';

export interface Problem {
  /** Path of the field, e.g. `personal.date_of_birth`, `guardians[0].phone`, `body`. */
  field: string;
  /** The whole sentence, e.g. `personal.date_of_birth must not be in the future`. */
  message: string;
}

/** One TypeBox validation error (the fields this module reads). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** 422 `{error, problems}`: `error` lists every message (or `head: …` when given), `problems` each one. */
export function problemsError(problems: Problem[], head?: string): ApiError {
  const text = problems.map((p) => p.message).join('; ');
  return unprocessable(head ? `${head}: ${text}` : text, { problems });
}

/** The problems an error carries (`extra.problems`), or the error's message as one problem of no field. */
export function problemsOf(error: ApiError): Problem[] {
  const problems = error.extra.problems;
  return Array.isArray(problems) && problems.every(isProblem)
    ? problems
    : [{ field: '', message: error.message }];
}

function isProblem(value: unknown): value is Problem {
  return typeof propOf(value, 'field') === 'string' && typeof propOf(value, 'message') === 'string';
}

/** The strings of a list held in an error's params (unknown or required field names). */
function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((n) => typeof n === 'string') : [];
}

/** `/guardians/0/email` → `guardians[0].email`. */
export function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/**
 * Schema errors of an object, one top-level key at a time: TypeBox stops after a few errors per
 * call, so each key is checked on its own and one bad key never hides another. Unknown keys are one
 * `additionalProperties` error; `required` names keys the caller must have (absent ones reported).
 */
export function schemaErrors(
  schema: TObject,
  body: Record<string, unknown>,
  required: readonly string[] = [],
): SchemaError[] {
  const props: Record<string, TSchema> = schema.properties;
  const out: SchemaError[] = [];
  const unknown = Object.keys(body).filter((key) => !Object.hasOwn(props, key));
  if (unknown.length > 0) {
    out.push({
      keyword: 'additionalProperties',
      instancePath: '',
      params: { additionalProperties: unknown },
      message: '',
    });
  }
  const missing = required.filter((key) => body[key] === undefined);
  if (missing.length > 0) {
    out.push({ keyword: 'required', instancePath: '', params: { requiredProperties: missing }, message: '' });
  }
  for (const [key, value] of Object.entries(body)) {
    if (!Object.hasOwn(props, key) || value === undefined) continue;
    for (const e of Value.Errors(props[key]!, value)) {
      out.push({ ...e, instancePath: `/${key}${e.instancePath}` });
    }
  }
  return out;
}

function formatText(format: string): string {
  if (format === 'date') return 'a valid date (YYYY-MM-DD)';
  if (format === 'date-time') return 'an ISO 8601 date-time with a time zone (e.g. 2026-05-01T09:30:00Z)';
  if (format === 'email') return 'a valid email address';
  return `a valid ${format}`;
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

/**
 * TypeBox errors of one value as problems, one per field. `root` names the value itself (`body`,
 * `item`); `rename` changes how a path reads in the message (the CSV reader names columns), never
 * the problem's `field`.
 */
export function describeSchemaErrors(
  errors: SchemaError[],
  rename: (path: string) => string = (p) => p,
  root = 'item',
): Problem[] {
  const groups = new Map<string, SchemaError[]>();
  for (const e of errors) {
    if (e.keyword === 'boolean') continue; // duplicate of the parent's additionalProperties error
    const list = groups.get(e.instancePath) ?? [];
    list.push(e);
    groups.set(e.instancePath, list);
  }
  const out: Problem[] = [];
  for (const [instancePath, list] of groups) {
    const path = fieldPath(instancePath);
    const field = path || root;
    const subject = (path && rename(path)) || root;
    const extra = list.find((e) => e.keyword === 'additionalProperties');
    if (extra) {
      const unknown = names(extra.params.additionalProperties);
      const message = `${subject} has unknown field${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`;
      out.push({ field, message });
    }
    for (const e of list.filter((x) => x.keyword === 'required')) {
      for (const name of names(e.params.requiredProperties)) {
        const at = path ? `${path}.${name}` : name;
        out.push({ field: at, message: `${rename(at)} is required` });
      }
    }
    const rest = list.filter((x) => x.keyword !== 'additionalProperties' && x.keyword !== 'required');
    if (rest.length === 0) continue;
    if (rest.some((x) => x.keyword === 'anyOf')) {
      const alternatives = rest.map(describeAlternative).filter((x): x is string => x !== null);
      // Only "null" left: the other branch failed deeper, and those errors are reported instead.
      if (alternatives.length === 1 && alternatives[0] === 'null') continue;
      const consts = rest.filter((x) => x.keyword === 'const').length;
      const message =
        consts > 1
          ? `${subject} must be one of ${alternatives.join(', ')}`
          : `${subject} must be ${alternatives.join(' or ')}`;
      out.push({ field, message });
    } else {
      const e = rest[0]!;
      const text = e.keyword === 'format' ? `must be ${formatText(String(e.params.format))}` : e.message;
      out.push({ field, message: `${subject} ${text}` });
    }
  }
  return out;
}
