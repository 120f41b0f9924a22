/**
 * XLSX writer (docs/exports.md "XLSX"): exceljs's streaming WorkbookWriter. The data sheet is named
 * after the preset, has a bold header row frozen in place, an autofilter over every column, column
 * widths and number formats for dates and times; a second sheet "About" says who exported what,
 * when and with which filters. Rows are committed as they arrive and the writer waits for the zip to
 * compress them (see `sheetEntry`), so memory stays flat in the row count.
 */
import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { lazyModule } from '../../lib/lazy-module.js';
import { numberProp, propOf } from '../../lib/narrow.js';
import type { CellType } from './columns.js';
import { drained, type SheetSink } from './sink.js';

/** exceljs is loaded on the first XLSX, not at start-up. */
const exceljs = lazyModule<typeof ExcelJS>('exceljs');

export interface SheetColumn {
  header: string;
  type: CellType;
  width: number;
}

const FORMAT: Partial<Record<CellType, string>> = { date: 'yyyy-mm-dd', datetime: 'yyyy-mm-dd hh:mm' };

/** Excel's sheet names: at most 31 characters, none of `[]:*?/\`. */
export function sheetName(label: string): string {
  return label.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31);
}

/** Uncompressed sheet XML the zip may have waiting before `write` waits for it (bytes). */
export const ENTRY_SLACK = 1 << 20;

/** The writable end of a zip entry (a readable-stream v2 PassThrough inside archiver). */
interface EntryInput {
  _writableState?: { length?: number };
  once(event: 'drain' | 'close', fn: () => void): unknown;
  off(event: 'drain' | 'close', fn: () => void): unknown;
}

/** Does `value` look like archiver's entry input (a byte count waiting, `once`/`off`)? */
function isEntryInput(value: unknown): value is EntryInput {
  return (
    typeof numberProp(propOf(value, '_writableState'), 'length') === 'number' &&
    typeof propOf(value, 'once') === 'function' &&
    typeof propOf(value, 'off') === 'function'
  );
}

/** What the sheet's zip entry has not yet compressed, and a wait for it. */
export interface SheetEntry {
  /** Bytes of sheet XML waiting to be compressed. */
  pending(): number;
  /** Resolves once the zip has taken everything waiting, or `out` has closed. */
  drained(out: Readable): Promise<void>;
}

/**
 * The sheet's zip entry. exceljs's streaming worksheet writes its XML into the zip (archiver)
 * without back-pressure (its StreamBuf ignores `write()`'s answer), so when rows are committed
 * faster than the zip deflates them, the uncompressed XML piles up in the entry's input: measured
 * ~70 MB at 20,000 rows of 60 columns (docs/performance.md "Papers"). Waiting for it bounds that.
 * Null if exceljs's internals change shape (test/exports/xlsx-memory.test.ts then fails).
 */
export function sheetEntry(sheet: ExcelJS.Worksheet): SheetEntry | null {
  const pipes = propOf(propOf(sheet, 'stream'), 'pipes');
  const input: unknown = Array.isArray(pipes) ? pipes[0] : undefined;
  if (!isEntryInput(input)) return null;
  const pending = () => input._writableState?.length ?? 0;
  return {
    pending,
    drained: (out) =>
      new Promise<void>((resolve) => {
        if (pending() === 0 || out.destroyed) return resolve();
        const done = () => {
          input.off('drain', done);
          input.off('close', done);
          out.off('close', done);
          resolve();
        };
        input.once('drain', done);
        input.once('close', done);
        out.once('close', done);
      }),
  };
}

/**
 * The XLSX sink. `pending()`: bytes of sheet XML not yet compressed (bounded by ENTRY_SLACK plus
 * one `write`'s rows; test/exports/xlsx-memory.test.ts).
 */
export function xlsxSink(columns: SheetColumn[], name: string): SheetSink & { pending(): number } {
  const out = new PassThrough();
  const workbook = new (exceljs().stream.xlsx.WorkbookWriter)({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const last = Math.max(columns.length, 1);
  const sheet = workbook.addWorksheet(sheetName(name), {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 0, topLeftCell: 'A2', activeCell: 'A2' }],
  });
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: last } };
  sheet.columns = columns.map((c, i) => {
    const fmt = FORMAT[c.type];
    return { key: `c${i}`, width: c.width, ...(fmt ? { style: { numFmt: fmt } } : {}) };
  });
  const header = sheet.addRow(columns.map((c) => c.header));
  header.font = { bold: true };
  header.commit();
  const entry = sheetEntry(sheet);
  return {
    stream: out,
    pending: () => entry?.pending() ?? 0,
    async write(rows) {
      for (const row of rows) sheet.addRow(row).commit();
      if (entry && entry.pending() > ENTRY_SLACK) await entry.drained(out);
      await drained(out);
    },
    async end(about) {
      sheet.commit();
      const info = workbook.addWorksheet('About');
      info.columns = [
        { key: 'k', width: 22 },
        { key: 'v', width: 60 },
      ];
      for (const [k, v] of about) {
        const row = info.addRow([k, v]);
        row.getCell(1).font = { bold: true };
        if (v instanceof Date) row.getCell(2).numFmt = 'yyyy-mm-dd hh:mm';
        row.commit();
      }
      info.commit();
      await workbook.commit();
    },
    fail: (error) => out.destroy(error),
  };
}
