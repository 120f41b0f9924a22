/**
 * Cell values (docs/exports.md "Cells"): the repository's raw texts turned into what a CSV holds
 * (words, formula-guarded) and what an XLSX cell holds (a typed value).
 */
import type { CellType } from './columns.js';

export type Raw = string | null;
export type Typed = string | number | boolean | Date | null;

/** A valid E.164 number (`+` and 7 to 15 digits): written as is, it holds no formula. */
export const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * Formula-injection guard (OWASP "CSV injection"): a cell starting with `=`, `+`, `-`, `@`, tab
 * or carriage return gets a leading `'`, so spreadsheet programs show it as text. A line feed
 * inside a value is handled by quoting (csv-writer.ts), never by this prefix.
 */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * The CSV text of a raw value. `keys` (machine headers) keeps machine values: `yes`/`no` and
 * ISO 8601 UTC times; otherwise `Yes`/`No` and `YYYY-MM-DD HH:MM` in the event's time zone.
 * A phone that is valid E.164 is written unchanged; any other phone text is guarded like text.
 */
export function csvText(type: CellType, raw: Raw, keys: boolean): string {
  if (raw === null) return '';
  switch (type) {
    case 'bool':
      return raw === 'true' ? (keys ? 'yes' : 'Yes') : keys ? 'no' : 'No';
    case 'int':
    case 'date':
      return raw;
    case 'datetime':
      return keys ? raw : raw.slice(0, 16).replace('T', ' ');
    case 'phone':
      return E164.test(raw) ? raw : guardFormula(raw);
    default:
      return guardFormula(raw);
  }
}

/**
 * The XLSX value of a raw value: booleans, numbers, and dates as `Date`s whose UTC fields are the
 * event's wall-clock time (spreadsheets have no time zones: the cell shows the local time).
 */
export function typedValue(type: CellType, raw: Raw): Typed {
  if (raw === null) return null;
  switch (type) {
    case 'bool':
      return raw === 'true';
    case 'int':
      return Number(raw);
    case 'date':
    case 'datetime':
      return new Date(`${raw.length === 10 ? `${raw}T00:00:00` : raw.slice(0, 19)}Z`);
    default:
      return raw;
  }
}
