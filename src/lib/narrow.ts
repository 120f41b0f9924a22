/**
 * Runtime-checked narrowing of values whose type the compiler cannot know (caught errors, parsed
 * bodies, a string that may be one of a closed list). Each guard tests what it claims, so callers
 * narrow instead of asserting a type (docs/architecture.md "Counts": casts).
 */

/** Is `value` one of `list`'s members (e.g. a role or status name)? Narrows to the member type. */
export function isOneOf<T extends string | number>(list: readonly T[], value: unknown): value is T {
  return list.some((member) => member === value);
}

/** Is `value` a plain object (not null, not an array)? Its keys then read as `unknown`. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is an object that has it; undefined otherwise. */
export function propOf(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/** `value[key]` when it is a string; undefined otherwise. */
export function stringProp(value: unknown, key: string): string | undefined {
  const v = propOf(value, key);
  return typeof v === 'string' ? v : undefined;
}

/** `value[key]` when it is a number; undefined otherwise. */
export function numberProp(value: unknown, key: string): number | undefined {
  const v = propOf(value, key);
  return typeof v === 'number' ? v : undefined;
}

/** A caught error's message (a thrown non-Error: its `message` text, else `String(error)`). */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : (stringProp(error, 'message') ?? String(error));

/** A caught error's name (`Error` for a thrown non-Error). */
export const errorName = (error: unknown): string => (error instanceof Error ? error.name : 'Error');

/** A caught error's `code` (Node's errno codes, SDK error codes) when it is a string. */
export const errorCode = (error: unknown): string | undefined => stringProp(error, 'code');

/** Is `key` an own key of `object`? Narrows a string to the object's key type. */
export function isKeyOf<T extends object>(object: T, key: PropertyKey): key is keyof T {
  return Object.hasOwn(object, key);
}

/** The own string keys of `object`, typed as its keys (each checked with `isKeyOf`). */
export const keysOf = <T extends object>(object: T) =>
  Object.keys(object).filter((key) => isKeyOf(object, key));

/** A caught value as an Error (a thrown non-Error wrapped, its text as the message). */
export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** `table[key]` when `key` is one of the table's own keys (a label table, say); undefined otherwise. */
export function entryOf<T extends object>(table: T, key: unknown): T[keyof T] | undefined {
  return (typeof key === 'string' || typeof key === 'number') && isKeyOf(table, key) ? table[key] : undefined;
}
