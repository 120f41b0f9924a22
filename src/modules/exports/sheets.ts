/**
 * Spreadsheet exports (CSV and XLSX; docs/exports.md): the preset's visible columns read in batches
 * and written with headers in words (or machine keys with `?headers=keys`), or the catering
 * summary's counts.
 */
import type { EventCtx } from '../../deps.js';
import { aboutRows } from './about.js';
import { cateringRows } from './catering.js';
import { csvText, type Typed, typedValue } from './cells.js';
import { csvSink } from './csv-writer.js';
import { exportRows } from './exports.repo.js';
import type { ExportPlan, ExportRun } from './exports.service.js';
import { PRESETS } from './presets.js';
import type { SheetSink } from './sink.js';
import { type SheetColumn, xlsxSink } from './xlsx-writer.js';

export function sheetRun(ctx: EventCtx, plan: ExportPlan): ExportRun {
  const preset = PRESETS[plan.preset];
  const summary = preset.rows === 'summary';
  const catering = summary ? cateringRows(ctx, plan) : null;
  const columns: SheetColumn[] = catering
    ? catering.columns
    : plan.columns.map((c) => ({ header: plan.keys ? c.key : c.label, type: c.type, width: c.width }));
  const sink: SheetSink =
    plan.format === 'csv' ? csvSink(columns.map((c) => c.header)) : xlsxSink(columns, preset.label);
  const csv = plan.format === 'csv';
  const convert = (row: (string | null)[]): Typed[] =>
    plan.columns.map((c, i) => (csv ? csvText(c.type, row[i]!, plan.keys) : typedValue(c.type, row[i]!)));
  return {
    stream: sink.stream,
    async *batches() {
      if (catering) {
        const rows = await catering.rows();
        await sink.write(
          csv
            ? rows.map((r) =>
                r.map((v) =>
                  csvText(typeof v === 'number' ? 'int' : 'text', v === null ? null : String(v), plan.keys),
                ),
              )
            : rows,
        );
        yield rows.length;
        return;
      }
      const source = exportRows(ctx.db, ctx.access.event.id, plan.columns, plan.filters, {
        order: preset.order,
        perLeg: preset.rows === 'leg',
        utcTimes: csv && plan.keys,
      });
      for await (const batch of source) {
        if (sink.stream.destroyed) return;
        await sink.write(batch.map(convert));
        yield batch.length;
      }
    },
    end: (rowCount) => sink.end(aboutRows(ctx, plan.preset, plan.format, plan.filters, rowCount)),
    fail: (error) => sink.fail(error),
  };
}
