/**
 * Shared helpers of the export tests: a CSV reader that splits rows the way a spreadsheet program
 * does (every unquoted LF, CR or CRLF ends a row), and values a participant could plant to smuggle a
 * formula into staff's files; and the values a limited user's files must never hold.
 */
import type { TestApp } from '../support/app.js';

/** Reads CSV like Excel or LibreOffice: quotes only open at a cell's start; any unquoted line end ends the row. */
export function spreadsheetRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let fresh = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
      continue;
    }
    if (ch === '"' && fresh) {
      quoted = true;
      fresh = false;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
      fresh = true;
    } else if (ch === '\r' || ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      fresh = true;
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else {
      cell += ch;
      fresh = false;
    }
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** What a spreadsheet would run as a formula: a cell starting with `=`, `+`, `-`, `@`, tab or CR. */
export const FORMULA_START = /^[=+\-@\t\r]/;
export const E164 = /^\+[1-9][0-9]{6,14}$/;

/** Values holding bare LF, bare CR, CRLF, quotes and each formula character. */
export const PLANTED = [
  "peanuts\n=cmd|' /C calc'!A0",
  'dust\r=1+1',
  'pollen\r\n+SUM(1,2)',
  'say "hi", then\n-2+3',
  '=HYPERLINK("http://x")',
  '+44 cmd',
  '-10+20',
  '@SUM(A1)',
  '\t=1+1',
  '\r=2+2',
  'x\n@A1',
  'y\r\n\t=3',
];

/** Every cell of a spreadsheet-read CSV that would start a formula (E.164 phones are plain numbers). */
export function formulaCells(rows: string[][]): string[] {
  return rows.flat().filter((c) => FORMULA_START.test(c) && !E164.test(c));
}

/**
 * What a limited user's files (CSV, XLSX, PDF) must not hold for `eventId`: every phone (the
 * person's, guardians', emergency contacts'), date of birth, address line, postcode and travel
 * origin address of its registrations.
 */
export async function limitedSecrets(t: TestApp, eventId: number): Promise<string[]> {
  const q = async (text: string) =>
    (await t.deps.database.pool.query(text, [eventId])).rows.flatMap((r) => Object.values(r));
  const values = [
    ...(await q(
      `SELECT p.phone, to_char(p.date_of_birth, 'YYYY-MM-DD') AS dob, p.address->>'line_1' AS line,
              p.address->>'postal_code' AS postcode
         FROM people p JOIN registrations r ON r.person_id = p.id WHERE r.event_id = $1`,
    )),
    ...(await q(
      `SELECT g.phone FROM guardians g JOIN registrations r ON r.id = g.registration_id WHERE r.event_id = $1`,
    )),
    ...(await q(
      `SELECT c.phone FROM emergency_contacts c JOIN registrations r ON r.id = c.registration_id WHERE r.event_id = $1`,
    )),
    ...(await q(
      `SELECT t.origin_address FROM travels t JOIN registrations r ON r.id = t.registration_id WHERE r.event_id = $1`,
    )),
  ];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))];
}
