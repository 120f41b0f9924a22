/**
 * Export filters (docs/exports.md "Filters"): `status` (comma-separated statuses, or `all`),
 * `minor`, `checked_in`, `group` (a group id of the event), `scan_context` (a scan context id or
 * UUID of the event) and `ids` (participant_event_ids, comma-separated, at most 500: a selection
 * made in the participants table; ids of other events simply match nothing). Unknown values are
 * 422 before anything is sent.
 */
import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { groups, registrationStatuses, scanContexts } from '../../db/schema/index.js';
import { unprocessable } from '../../lib/errors.js';
import { isOneOf } from '../../lib/narrow.js';
import { CHECKED_IN, IS_MINOR } from './columns.js';

export interface ExportQuery {
  status?: string;
  minor?: 'true' | 'false';
  checked_in?: 'true' | 'false';
  group?: string;
  scan_context?: string;
  ids?: string;
  headers?: 'words' | 'keys';
  /** Badges only: sheet or label size, and photos. */
  layout?: 'a4' | 'letter' | 'label-4x3' | 'label-62x100';
  photos?: 'true' | 'false';
}

export interface ExportFilters {
  /** Statuses to include; absent: every status. */
  status?: string[];
  minor?: boolean;
  checked_in?: boolean;
  group?: { id: number; name: string };
  scan_context?: { id: number; name: string };
  /** Only these registrations (a selection). */
  ids?: number[];
}

/** Most registrations a selection (`ids`) may name. */
export const MAX_SELECTED = 500;

function parseIds(raw: string): number[] {
  const parts = raw.split(',').map((x) => x.trim());
  if (parts.length > MAX_SELECTED) throw unprocessable(`Select at most ${MAX_SELECTED} participants`);
  if (parts.some((x) => !ID.test(x)))
    throw unprocessable('ids must be participant numbers separated by commas');
  return [...new Set(parts.map(Number))];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID = /^[0-9]{1,9}$/;

function parseStatus(raw: string | undefined, preset: readonly string[] | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return preset ? [...preset] : undefined;
  const wanted = raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (wanted.includes('all')) return undefined;
  const unknown = wanted.filter((x) => !isOneOf(registrationStatuses, x));
  if (unknown.length > 0) throw unprocessable(`Unknown status: ${unknown.join(', ')}`);
  return wanted;
}

/** Reads and checks the query; `defaultStatus` applies when `status` is absent. */
export async function parseFilters(
  db: Tx,
  eventId: number,
  q: ExportQuery,
  defaultStatus: readonly string[] | undefined,
): Promise<ExportFilters> {
  const filters: ExportFilters = {};
  const status = parseStatus(q.status, defaultStatus);
  if (status) filters.status = status;
  if (q.minor !== undefined) filters.minor = q.minor === 'true';
  if (q.checked_in !== undefined) filters.checked_in = q.checked_in === 'true';
  if (q.group !== undefined) {
    const [row] = ID.test(q.group)
      ? await db
          .select({ id: groups.id, name: groups.name })
          .from(groups)
          .where(and(eq(groups.eventId, eventId), eq(groups.id, Number(q.group))))
      : [];
    if (!row) throw unprocessable('Unknown group for this event');
    filters.group = row;
  }
  if (q.scan_context !== undefined) {
    const ref = q.scan_context;
    const match = ID.test(ref)
      ? eq(scanContexts.id, Number(ref))
      : UUID.test(ref)
        ? eq(scanContexts.uuid, ref)
        : null;
    const [row] = match
      ? await db
          .select({ id: scanContexts.id, name: scanContexts.name })
          .from(scanContexts)
          .where(and(eq(scanContexts.eventId, eventId), or(match)))
      : [];
    if (!row) throw unprocessable('Unknown scan context for this event');
    filters.scan_context = row;
  }
  if (q.ids !== undefined) filters.ids = parseIds(q.ids);
  return filters;
}

/**
 * The filters as SQL over `r`, `p`, `e`. `scan_context` keeps registrations scanned in that context
 * unless `contextIsTitle` (the door list, whose context names the list instead).
 */
export function filterSql(f: ExportFilters, contextIsTitle: boolean): SQL[] {
  const parts: SQL[] = [];
  if (f.status?.length)
    parts.push(
      sql`r.status IN (${sql.join(
        f.status.map((st) => sql`${st}`),
        sql`, `,
      )})`,
    );
  if (f.minor !== undefined) parts.push(sql`${sql.raw(IS_MINOR)} = ${f.minor}`);
  if (f.checked_in !== undefined) parts.push(sql`${sql.raw(CHECKED_IN)} = ${f.checked_in}`);
  if (f.group)
    parts.push(
      sql`EXISTS (SELECT 1 FROM registration_groups fg WHERE fg.registration_id = r.id AND fg.group_id = ${f.group.id})`,
    );
  if (f.ids)
    parts.push(
      f.ids.length === 0
        ? sql`false`
        : sql`r.id IN (${sql.join(
            f.ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
  if (f.scan_context && !contextIsTitle)
    parts.push(
      sql`EXISTS (SELECT 1 FROM scans fs WHERE fs.registration_id = r.id AND fs.scan_context_id = ${f.scan_context.id})`,
    );
  return parts;
}

/** The filters as audit metadata and About-sheet lines (ids and names, no personal data). */
export function describeFilters(f: ExportFilters): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (f.status) out.status = f.status;
  if (f.minor !== undefined) out.minor = f.minor;
  if (f.checked_in !== undefined) out.checked_in = f.checked_in;
  if (f.group) out.group = f.group.id;
  if (f.scan_context) out.scan_context = f.scan_context.id;
  if (f.ids) out.ids = f.ids;
  return out;
}
