/**
 * Exports page (docs/exports.md "The Exports page"), action `exports.read` (participants access,
 * not read_only):
 * - GET /staff/events/{e}/exports: the presets this caller may download (a preset closed to them,
 *   like `medical` without safeguarding access, is not offered) with what each holds for them,
 *   a table of who gets what, and the filters (status, under 18, checked in, group, scan context)
 *   carried into the links.
 * - GET /staff/events/{e}/exports/{preset}.csv|.xlsx: the same file as the API route, streamed by
 *   the same export service (same columns, same audit entry), for the browser's session cookie
 *   (the API routes take bearer credentials only). `Content-Disposition: attachment`, no-store.
 */
import { asc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { groups, registrationStatuses, scanContexts } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { type Api, sendStream } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { isOneOf } from '../../lib/narrow.js';
import { EXPORT_MEDIA, ExportQuerySchema } from '../exports/exports.schemas.js';
import { type ExportFormat, planExport, streamExport } from '../exports/exports.service.js';
import { MAX_SELECTED } from '../exports/filters.js';
import { mayDownload, PRESET_NAMES, PRESETS } from '../exports/presets.js';
import { pageResponses } from '../web/web.schemas.js';
import { PRESET_TEXT } from './export-texts.js';
import { STATUS_LABELS } from './format.js';
import { eventFrame } from './org-pages.js';

const action = 'exports.read' as const;
const session = { action, credential: 'session_cookie' } as const;
const EventParams = Type.Object(
  { event_id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);
const FileParams = Type.Object(
  {
    event_id: Type.String({ pattern: '^[0-9]{1,9}$' }),
    preset: Type.String({ minLength: 1, maxLength: 50 }),
  },
  { additionalProperties: false },
);
const Bool = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('')]);
const PageQuery = Type.Object(
  {
    status: Type.Optional(Type.Array(Type.String({ maxLength: 30 }), { maxItems: 7 })),
    minor: Type.Optional(Bool),
    checked_in: Type.Optional(Bool),
    group: Type.Optional(Type.String({ maxLength: 20 })),
    scan_context: Type.Optional(Type.String({ maxLength: 40 })),
    /** A selection from the participants table (participant_event_ids), carried as `ids`. */
    pe: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]{1,9}$' }), { maxItems: MAX_SELECTED })),
    ids: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}(,[0-9]{1,9}){0,499}$' })),
  },
  { additionalProperties: false },
);
const FORMAT_LABEL: Record<ExportFormat, string> = {
  csv: 'CSV',
  xlsx: staffText('exports.excel'),
  pdf: 'PDF',
};

export function exportPages(
  web: Api,
  deps: Deps,
  formats: readonly ExportFormat[] = ['csv', 'xlsx', 'pdf'],
): void {
  web.get(
    '/staff/events/:event_id/exports',
    {
      config: session,
      schema: { hide: true, params: EventParams, querystring: PageQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const event = ctx.access.event;
      const q = request.query;
      const statuses = (q.status ?? []).filter((s) => s === 'all' || isOneOf(registrationStatuses, s));
      const groupRows = await ctx.db
        .select({ id: groups.id, name: groups.name })
        .from(groups)
        .where(eq(groups.eventId, event.id))
        .orderBy(asc(groups.name));
      const contextRows = await ctx.db
        .select({ id: scanContexts.id, name: scanContexts.name })
        .from(scanContexts)
        .where(eq(scanContexts.eventId, event.id))
        .orderBy(asc(scanContexts.position), asc(scanContexts.id));
      const filter = new URLSearchParams();
      if (statuses.length) filter.set('status', statuses.includes('all') ? 'all' : statuses.join(','));
      if (q.minor) filter.set('minor', q.minor);
      if (q.checked_in) filter.set('checked_in', q.checked_in);
      if (q.group && groupRows.some((g) => String(g.id) === q.group)) filter.set('group', q.group);
      if (q.scan_context && contextRows.some((c) => String(c.id) === q.scan_context))
        filter.set('scan_context', q.scan_context);
      const selected = [...new Set([...(q.pe ?? []), ...(q.ids ? q.ids.split(',') : [])])];
      if (selected.length) filter.set('ids', selected.join(','));
      const suffix = filter.size ? `?${filter.toString()}` : '';
      const base = `/staff/events/${event.id}/exports`;
      const v = ctx.access.visibility;
      const presets = PRESET_NAMES.map((p) => ({
        name: p,
        label: PRESETS[p].label,
        about: PRESET_TEXT[p].about(v),
        who: PRESET_TEXT[p].who,
        allowed: mayDownload(p, v),
        links: PRESETS[p].formats
          .filter((f) => formats.includes(f))
          .map((f) => ({ label: FORMAT_LABEL[f], href: `${base}/${p}.${f}${suffix}` })),
      }));
      return reply.page(200, 'staff/exports', {
        ...eventFrame(ctx.access, '/exports', staffText('exports.exports')),
        sheets: presets.filter((p) => p.allowed && !PRESETS[p.name].formats.includes('pdf')),
        printouts: presets.filter((p) => p.allowed && PRESETS[p.name].formats.includes('pdf')),
        table: presets,
        statuses: registrationStatuses.map((s) => ({
          value: s,
          label: STATUS_LABELS[s],
          checked: statuses.includes(s),
        })),
        allStatuses: statuses.includes('all'),
        groups: groupRows.map((g) => ({ ...g, selected: String(g.id) === q.group })),
        contexts: contextRows.map((c) => ({ ...c, selected: String(c.id) === q.scan_context })),
        minor: q.minor ?? '',
        checked_in: q.checked_in ?? '',
        filtered: filter.size > 0,
        selected: selected.length,
        ids: selected.join(','),
      });
    },
  );

  for (const format of formats) {
    web.get(
      `/staff/events/:event_id/exports/:preset.${format}`,
      { config: session, schema: { hide: true, params: FileParams, querystring: ExportQuerySchema } },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        const plan = await planExport(ctx, request.params.preset, format, request.query);
        reply
          .header('Content-Type', EXPORT_MEDIA[format])
          .header('Content-Disposition', `attachment; filename="${plan.filename}.${format}"`);
        return sendStream(reply, streamExport(ctx, plan));
      },
    );
  }
}
