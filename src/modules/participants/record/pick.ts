import { propOf } from '../../../lib/narrow.js';

/** snake_case item keys → camelCase column values, for the section writers. */
type Values = Record<string, unknown>;

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The keys of `src` that are present (not undefined) among `keys`, renamed to camelCase columns. */
export function pick<T>(src: object | null | undefined, keys: readonly string[]): Partial<T> {
  const out: Values = {};
  if (!src) return out as Partial<T>;
  for (const key of keys) {
    const value = propOf(src, key);
    if (value !== undefined) out[camel(key)] = value;
  }
  return out as Partial<T>;
}

/** Every key of `keys` set to `value` (clearing a section given as null). */
export function all<T>(keys: readonly string[], value: unknown): Partial<T> {
  return Object.fromEntries(keys.map((k) => [camel(k), value])) as Partial<T>;
}
