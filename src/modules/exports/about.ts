/**
 * What a file says about itself (docs/exports.md "About"): the XLSX "About" sheet and the PDFs'
 * footer line. Who exported (name and email), what, when (the event's wall-clock time), the time
 * zone of every date and time in the file, and the filters in words. No personal data of
 * participants.
 */
import type { EventCtx } from '../../deps.js';
import { zoneOffsetMs } from '../../lib/zoned-time.js';
import type { Typed } from './cells.js';
import type { ExportFilters } from './filters.js';
import { type ExportFormat, PRESETS, type PresetName } from './presets.js';

/** Registration statuses as people read them (the staff pages' words). */
export const STATUS_WORDS: Record<string, string> = {
  invited: 'Invited',
  in_progress: 'In progress',
  awaiting_guardian: 'Awaiting guardian',
  complete: 'Complete',
  withdrawn: 'Withdrawn',
  rejected: 'Rejected',
};

/** `now` as a Date whose UTC fields are the wall-clock time in `zone`. */
export function wallClock(now: Date, zone: string): Date {
  return new Date(now.getTime() + zoneOffsetMs(now.getTime(), zone));
}

/** `YYYY-MM-DD HH:MM` of a wall-clock Date (wallClock). */
export const wallText = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');

/** The filters in words, one `[label, value]` per filter. */
export function filterLines(f: ExportFilters): [string, string][] {
  const yesNo = (b: boolean) => (b ? 'Yes' : 'No');
  const lines: [string, string][] = [
    ['Registration status', f.status ? f.status.map((s) => STATUS_WORDS[s] ?? s).join(', ') : 'Any'],
  ];
  if (f.minor !== undefined) lines.push(['Under 18', yesNo(f.minor)]);
  if (f.checked_in !== undefined) lines.push(['Checked in', yesNo(f.checked_in)]);
  if (f.group) lines.push(['Group', f.group.name]);
  if (f.scan_context) lines.push(['Scan context', f.scan_context.name]);
  if (f.ids)
    lines.push([
      'Selection',
      `${f.ids.length} participant${f.ids.length === 1 ? '' : 's'} chosen in the table`,
    ]);
  return lines;
}

export function exportedBy(ctx: EventCtx): string {
  const p = ctx.access.principal;
  return 'user' in p ? `${p.user.name} <${p.user.email}>` : (p.credentialName ?? p.kind);
}

/** The About sheet's rows. */
export function aboutRows(
  ctx: EventCtx,
  preset: PresetName,
  format: ExportFormat,
  filters: ExportFilters,
  rowCount: number,
): [string, Typed][] {
  const event = ctx.access.event;
  return [
    ['Event', event.name],
    ['Export', `${PRESETS[preset].label} (${format.toUpperCase()})`],
    ['Exported by', exportedBy(ctx)],
    ['Exported at', wallClock(new Date(), event.timezone)],
    ['Time zone', `${event.timezone}: every date and time in this file`],
    ...filterLines(filters),
    ['Rows', rowCount],
    ['Columns', 'Only the columns your role may see; the export is recorded in the audit trail'],
  ];
}
