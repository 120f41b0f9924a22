/**
 * XLSX writer (docs/exports.md "XLSX"): exceljs's streaming WorkbookWriter. The data sheet is named
 * after the preset, has a bold header row frozen in place, an autofilter over every column, column
 * widths and number formats for dates and times; a second sheet "About" says who exported what,
 * when and with which filters. Rows are committed as they arrive, so memory stays flat.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CellType } from './columns.js';
import { drained, type SheetSink } from './sink.js';

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

export function xlsxSink(columns: SheetColumn[], name: string): SheetSink {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
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
  return {
    stream: out,
    async write(rows) {
      for (const row of rows) sheet.addRow(row).commit();
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
