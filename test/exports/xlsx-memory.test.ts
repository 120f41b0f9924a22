/**
 * The XLSX writer's memory stays flat in the row count (docs/performance.md "Papers"): exceljs's
 * streaming worksheet hands its XML to the zip without back-pressure, so rows committed faster than
 * the zip deflates them used to pile up uncompressed (~70 MB at 20,000 wide rows). The writer now
 * waits for the zip: after every batch, what waits to be compressed is at most ENTRY_SLACK plus
 * that batch. The file written that way still reads back whole. No timing is asserted: rows are
 * produced without yielding to the event loop, the fastest a database could feed them.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Typed } from '../../src/modules/exports/cells.js';
import { ENTRY_SLACK, sheetEntry, xlsxSink } from '../../src/modules/exports/xlsx-writer.js';

const COLUMNS = Array.from({ length: 40 }, (_, i) => ({
  header: `Column ${i}`,
  type: 'text' as const,
  width: 12,
}));
const BATCH = 500;
const BATCHES = 8;

const batch = (b: number): Typed[][] =>
  Array.from({ length: BATCH }, (_, r) =>
    COLUMNS.map((_, i) => `row ${b * BATCH + r} column ${i}: some text a caterer or a nurse reads`),
  );

describe('XLSX writer memory', () => {
  it('keeps at most ENTRY_SLACK plus one batch of uncompressed XML, and writes every row', async () => {
    const sink = xlsxSink(COLUMNS, 'Full');
    const chunks: Buffer[] = [];
    sink.stream.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => sink.stream.on('end', resolve));
    // One batch's XML, generously: 40 cells of ~60 characters plus their markup per row.
    const oneBatch = BATCH * COLUMNS.length * 120;
    let worst = 0;
    for (let b = 0; b < BATCHES; b++) {
      await sink.write(batch(b));
      worst = Math.max(worst, sink.pending());
    }
    expect(worst).toBeLessThanOrEqual(ENTRY_SLACK + oneBatch);
    await sink.end([['Rows', BATCH * BATCHES]]);
    await done;

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Full')!;
    expect(sheet.rowCount).toBe(BATCH * BATCHES + 1);
    expect(sheet.getRow(BATCH * BATCHES + 1).getCell(40).value).toBe(
      `row ${BATCH * BATCHES - 1} column 39: some text a caterer or a nurse reads`,
    );
  }, 120_000);

  it('finds the sheet’s zip entry inside exceljs (else the writer could not wait for it)', () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new PassThrough(), useStyles: true });
    const entry = sheetEntry(wb.addWorksheet('Full'));
    expect(entry).not.toBeNull();
    expect(entry!.pending()).toBeGreaterThanOrEqual(0);
  });
});
