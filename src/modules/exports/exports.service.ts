/**
 * Participant exports for people who work offline (first aiders, caterers, drivers): a preset's
 * columns that the caller may see (presets.ts), as CSV or XLSX, streamed from the database in
 * batches (exports.repo.ts) so 20,000 registrations export in bounded memory.
 *
 * - 404 `Export preset not found` for an unknown preset; 403 `This export needs access to medical
 *   and safeguarding data` for `medical` / `emergency_contacts` without sensitive access (nothing
 *   is audited then); 422 for an unknown status filter.
 * - Every export is audited once it ends (`exports.create`: preset, format, row_count, filters;
 *   `completed: false` when the download stopped early).
 */
import type { Readable } from 'node:stream';
import { registrationStatuses } from '../../db/schema/index.js';
import type { EventCtx } from '../../deps.js';
import { forbidden, notFound, unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { type ExportFilters, exportRows } from './exports.repo.js';
import { type Column, PRESET_NAMES, PRESETS, type PresetName, visibleColumns } from './presets.js';
import { csvSink, type SheetSink, xlsxSink } from './writers.js';

export type ExportFormat = 'csv' | 'xlsx';
export const SENSITIVE_EXPORT = 'This export needs access to medical and safeguarding data';

export interface ExportQuery {
  status?: string;
  minor?: 'true' | 'false';
  checked_in?: 'true' | 'false';
}

export interface ExportPlan {
  preset: PresetName;
  columns: Column[];
  filters: ExportFilters;
  filename: string;
}

function parseFilters(q: ExportQuery): ExportFilters {
  const filters: ExportFilters = {};
  if (q.status !== undefined) {
    const wanted = q.status
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const unknown = wanted.filter((x) => !(registrationStatuses as readonly string[]).includes(x));
    if (unknown.length > 0) throw unprocessable(`Unknown status: ${unknown.join(', ')}`);
    filters.status = wanted;
  }
  if (q.minor !== undefined) filters.minor = q.minor === 'true';
  if (q.checked_in !== undefined) filters.checked_in = q.checked_in === 'true';
  return filters;
}

/** Checks the preset and the caller's right to it; throws 404/403/422 before anything is sent. */
export function planExport(ctx: EventCtx, preset: string, query: ExportQuery): ExportPlan {
  if (!(PRESET_NAMES as string[]).includes(preset)) throw notFound('Export preset not found');
  const name = preset as PresetName;
  const columns = visibleColumns(name, ctx.access.visibility);
  if (!columns) throw forbidden(SENSITIVE_EXPORT);
  const event = ctx.access.event;
  return { preset: name, columns, filters: parseFilters(query), filename: `${event.slug}-${name}` };
}

/** The file's byte stream; rows are read and written as the client consumes them. */
export function streamExport(ctx: EventCtx, plan: ExportPlan, format: ExportFormat): Readable {
  const headers = plan.columns.map((c) => c.header);
  const sink: SheetSink = format === 'csv' ? csvSink(headers) : xlsxSink(headers, plan.preset);
  void fill(ctx, plan, format, sink);
  return sink.stream;
}

async function fill(ctx: EventCtx, plan: ExportPlan, format: ExportFormat, sink: SheetSink): Promise<void> {
  const event = ctx.access.event;
  const perLeg = PRESETS[plan.preset].rows === 'leg';
  let rowCount = 0;
  let completed = false;
  try {
    for await (const batch of exportRows(ctx.db, event.id, plan.columns, plan.filters, perLeg)) {
      if (sink.stream.destroyed) break;
      await sink.write(batch);
      rowCount += batch.length;
    }
    completed = !sink.stream.destroyed;
  } catch (error) {
    ctx.log.error({ err: error, preset: plan.preset }, 'export failed');
    sink.fail(error as Error);
  }
  try {
    await recordAudit(ctx.db, {
      action: 'exports.create',
      principal: ctx.access.principal,
      eventId: event.id,
      targetType: 'event',
      targetId: event.id,
      metadata: { preset: plan.preset, format, row_count: rowCount, filters: plan.filters, completed },
    });
  } catch (error) {
    ctx.log.error({ err: error }, 'could not audit an export');
  }
  if (completed) await sink.end().catch((error: Error) => sink.fail(error));
}
