/**
 * Spreadsheet writers fed batch by batch, with back-pressure: CSV (csv-stringify, UTF-8 BOM, cells
 * that a spreadsheet would run as a formula escaped) and XLSX (exceljs streaming WorkbookWriter,
 * inline strings, no styles). Both return the byte stream at once and fill it as rows arrive.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';

export type Cell = string | null;

/**
 * Formula-injection escaping (OWASP "CSV injection"): a cell starting with `=`, `+`, `-`, `@`, tab
 * or carriage return gets a leading `'`, so spreadsheet programs show it as text.
 */
export function escapeCell(value: Cell): string {
  if (value === null) return '';
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Waits until `stream` wants more, or is gone (a client that hung up never drains it). */
async function drained(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export interface SheetSink {
  readonly stream: Readable;
  /** Appends rows; resolves when the output can take more. */
  write(rows: Cell[][]): Promise<void>;
  /** Ends the file (writes the XLSX directory); the stream then ends. */
  end(): Promise<void>;
  fail(error: Error): void;
}

export function csvSink(headers: string[]): SheetSink {
  const csv = stringify({ bom: true, record_delimiter: 'windows' });
  csv.write(headers);
  return {
    stream: csv,
    async write(rows) {
      for (const row of rows) csv.write(row.map(escapeCell));
      await drained(csv);
    },
    async end() {
      csv.end();
    },
    fail: (error) => csv.destroy(error),
  };
}

export function xlsxSink(headers: string[], sheetName: string): SheetSink {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow(headers).commit();
  return {
    stream: out,
    async write(rows) {
      for (const row of rows) sheet.addRow(row).commit();
      await drained(out);
    },
    async end() {
      sheet.commit();
      await workbook.commit();
    },
    fail: (error) => out.destroy(error),
  };
}
