/**
 * CSV writer (docs/exports.md "CSV"): csv-stringify, UTF-8 with a byte order mark, CRLF between
 * records. Every value holding a line feed or carriage return is quoted (csv-stringify quotes only
 * the configured record delimiter otherwise, so a bare LF or CR would start a new row in a
 * spreadsheet); formula characters are guarded by cells.ts before rows arrive here.
 */
import { stringify } from 'csv-stringify';
import type { Typed } from './cells.js';
import { drained, type SheetSink } from './sink.js';

const text = (v: Typed): string => (v === null ? '' : String(v));

export function csvSink(headers: string[]): SheetSink {
  const csv = stringify({ bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
  csv.write(headers);
  return {
    stream: csv,
    async write(rows) {
      for (const row of rows) csv.write(row.map(text));
      await drained(csv);
    },
    async end() {
      csv.end();
    },
    fail: (error) => csv.destroy(error),
  };
}
