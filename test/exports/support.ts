/**
 * Shared helpers of the export tests: a CSV reader that splits rows the way a spreadsheet program
 * does (every unquoted LF, CR or CRLF ends a row), and values a participant could plant to smuggle a
 * formula into staff's files.
 */

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
