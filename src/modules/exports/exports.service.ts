/**
 * Participant exports and printouts for people who work offline (first aiders, caterers, drivers,
 * the door): a preset's columns that the caller may see, as CSV, XLSX or PDF, streamed from the
 * database in batches so 20,000 registrations export in bounded memory. docs/exports.md.
 *
 * - 404 `Export preset not found` for an unknown preset or a format the preset does not have;
 *   403 `This export needs access to medical and safeguarding data` for a sensitive preset without
 *   sensitive access (nothing is audited then); 422 for an unknown filter value.
 * - Every export is audited once it ends (`exports.create`: preset, format, row_count, filters;
 *   `completed: false` when the download stopped early).
 */
import type { Readable } from 'node:stream';
import type { EventCtx } from '../../deps.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { asError, isOneOf } from '../../lib/narrow.js';
import { recordAudit } from '../audit/audit.service.js';
import { eventDays } from './catering.js';
import type { Column } from './columns.js';
import { describeFilters, type ExportFilters, type ExportQuery, parseFilters } from './filters.js';
import {
  type ExportFormat,
  mayDownload,
  PRESET_NAMES,
  PRESETS,
  type PresetName,
  visibleColumns,
} from './presets.js';
import type { BadgeLayout } from './printouts/badges.js';
import { printoutRun } from './printouts/printouts.js';
import { sheetRun } from './sheets.js';

export const SENSITIVE_EXPORT = 'This export needs access to medical and safeguarding data';
export type { ExportFormat, ExportQuery };

export interface ExportPlan {
  preset: PresetName;
  format: ExportFormat;
  columns: Column[];
  filters: ExportFilters;
  /** Headers as machine keys (`?headers=keys`) instead of words. */
  keys: boolean;
  filename: string;
  /** The catering summary's day columns. */
  days?: string[];
  /** Badges: the sheet or label size, and whether photos are printed. */
  layout?: BadgeLayout;
  photos?: boolean;
}

/** A file being written: its bytes, and the batches that fill it (each yields its row count). */
export interface ExportRun {
  stream: Readable;
  batches(): AsyncGenerator<number>;
  end(rowCount: number): Promise<void>;
  fail(error: Error): void;
}

/** Checks the preset, the format, the caller's right and the filters; throws 404/403/422 before anything is sent. */
export async function planExport(
  ctx: EventCtx,
  preset: string,
  format: ExportFormat,
  query: ExportQuery,
): Promise<ExportPlan> {
  if (!isOneOf(PRESET_NAMES, preset)) throw notFound('Export preset not found');
  const name = preset;
  if (!PRESETS[name].formats.includes(format))
    throw notFound(
      `The ${name} export is available as ${PRESETS[name].formats.join(' or ').toUpperCase()} only`,
    );
  if (!mayDownload(name, ctx.access.visibility)) throw forbidden(SENSITIVE_EXPORT);
  const event = ctx.access.event;
  const filters = await parseFilters(ctx.db, event.id, query, PRESETS[name].defaultStatus);
  return {
    preset: name,
    format,
    columns: visibleColumns(name, ctx.access.visibility) ?? [],
    filters,
    keys: query.headers === 'keys',
    filename: `${event.slug}-${name}`,
    ...(PRESETS[name].rows === 'summary' ? { days: await eventDays(ctx) } : {}),
    ...(name === 'badges' ? { layout: query.layout ?? 'a4', photos: query.photos === 'true' } : {}),
  };
}

/** The file's byte stream; rows are read and written as the client consumes them. */
export function streamExport(ctx: EventCtx, plan: ExportPlan): Readable {
  const run = plan.format === 'pdf' ? printoutRun(ctx, plan) : sheetRun(ctx, plan);
  void fill(ctx, plan, run);
  return run.stream;
}

async function fill(ctx: EventCtx, plan: ExportPlan, run: ExportRun): Promise<void> {
  const event = ctx.access.event;
  let rowCount = 0;
  let completed = false;
  try {
    for await (const n of run.batches()) {
      rowCount += n;
      if (run.stream.destroyed) break;
    }
    completed = !run.stream.destroyed;
  } catch (error) {
    ctx.log.error({ err: error, preset: plan.preset }, 'export failed');
    run.fail(asError(error));
  }
  try {
    await recordAudit(ctx.db, {
      action: 'exports.create',
      principal: ctx.access.principal,
      eventId: event.id,
      targetType: 'event',
      targetId: event.id,
      metadata: {
        preset: plan.preset,
        format: plan.format,
        row_count: rowCount,
        filters: describeFilters(plan.filters),
        completed,
      },
    });
  } catch (error) {
    ctx.log.error({ err: error }, 'could not audit an export');
  }
  if (completed) await run.end(rowCount).catch((error: Error) => run.fail(error));
}
