/** Defensive readers for provider JSON (already verified, but of any shape). */
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;

/** A non-empty string of at most `max` characters, else undefined. */
export const str = (v: unknown, max = 500): string | undefined =>
  typeof v === 'string' && v.trim().length > 0 ? v.trim().slice(0, max) : undefined;

/** A provider id: a string or a safe integer, as text. */
export const idText = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : str(v, 200);

/** A plausible email address, lower-cased. */
export function emailOf(v: unknown): string | undefined {
  const s = str(v, 320)?.toLowerCase();
  return s && /^[^\s@]+@[^\s@]+$/.test(s) ? s : undefined;
}

/** An ISO 8601 timestamp the database accepts, else undefined (the caller falls back to now). */
export function isoOf(v: unknown): string | undefined {
  const s = str(v, 40);
  if (!s || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
