/**
 * Exports page (docs/staff-dashboard.md "Exports"), action
 * `exports.read` (participants access, not read_only):
 * - GET /staff/events/{e}/exports: the presets this caller may download (a preset closed to them,
 *   like `medical` without safeguarding access, is not offered), each as CSV and Excel, with the
 *   participants table's filters (status, under 18, checked in) carried into the links.
 * - GET /staff/events/{e}/exports/{preset}.csv|.xlsx: the same file as the API route, streamed by
 *   the same export service (same columns, same audit entry), for the browser's session cookie
 *   (the API routes take bearer credentials only). `Content-Disposition: attachment`, no-store.
 */
import { Type } from 'typebox';
import { type RegistrationStatus, registrationStatuses } from '../../db/schema/participants.js';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { type Api, sendStream } from '../../http/typed.js';
import { type ExportFormat, planExport, streamExport } from '../exports/exports.service.js';
import { PRESET_NAMES, visibleColumns } from '../exports/presets.js';
import { pageResponses } from '../web/web.schemas.js';
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
const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
const PageQuery = Type.Object(
  {
    status: Type.Optional(Type.Array(Type.String({ maxLength: 30 }), { maxItems: 6 })),
    minor: Type.Optional(Type.Union([Bool, Type.Literal('')])),
    checked_in: Type.Optional(Type.Union([Bool, Type.Literal('')])),
  },
  { additionalProperties: false },
);
const FileQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ maxLength: 200 })),
    minor: Type.Optional(Bool),
    checked_in: Type.Optional(Bool),
  },
  { additionalProperties: false },
);
const MEDIA = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
const PRESET_TEXT: Record<string, { label: string; about: string }> = {
  roster: { label: 'Roster', about: 'Names, email, registration status and check-in.' },
  medical: { label: 'Medical', about: 'Allergies, medical details and action plans, emergency contacts.' },
  dietary: { label: 'Dietary', about: 'For catering: diets, intolerances and allergy risk.' },
  rooming: { label: 'Rooming', about: 'Accommodation needs, roommate preferences and assigned rooms.' },
  travel: { label: 'Travel', about: 'One row per journey leg, with pickup state.' },
  emergency_contacts: { label: 'Emergency contacts', about: 'Who to call for each participant.' },
  full: { label: 'Everything', about: 'Every field you are allowed to see.' },
};

export function exportPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/exports',
    {
      config: session,
      schema: { hide: true, params: EventParams, querystring: PageQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const q = request.query;
      const statuses = (q.status ?? []).filter((s) =>
        (registrationStatuses as readonly string[]).includes(s),
      );
      const filter = new URLSearchParams();
      if (statuses.length) filter.set('status', statuses.join(','));
      if (q.minor) filter.set('minor', q.minor);
      if (q.checked_in) filter.set('checked_in', q.checked_in);
      const suffix = filter.size ? `?${filter.toString()}` : '';
      const base = `/staff/events/${ctx.access.event.id}/exports`;
      const presets = PRESET_NAMES.filter((p) => visibleColumns(p, ctx.access.visibility) !== null).map(
        (p) => ({
          name: p,
          ...(PRESET_TEXT[p] ?? { label: p, about: '' }),
          csv: `${base}/${p}.csv${suffix}`,
          xlsx: `${base}/${p}.xlsx${suffix}`,
        }),
      );
      return reply.page(200, 'staff/exports', {
        ...eventFrame(ctx.access, '/exports', 'Exports'),
        presets,
        statuses: registrationStatuses.map((s) => ({
          value: s,
          label: STATUS_LABELS[s as RegistrationStatus] ?? s,
          checked: statuses.includes(s),
        })),
        minor: q.minor ?? '',
        checked_in: q.checked_in ?? '',
        filtered: filter.size > 0,
      });
    },
  );

  for (const format of ['csv', 'xlsx'] as const satisfies ExportFormat[]) {
    web.get(
      `/staff/events/:event_id/exports/:preset.${format}`,
      { config: session, schema: { hide: true, params: FileParams, querystring: FileQuery } },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        const plan = planExport(ctx, request.params.preset, request.query);
        reply
          .header('Content-Type', MEDIA[format])
          .header('Content-Disposition', `attachment; filename="${plan.filename}.${format}"`);
        return sendStream(reply, streamExport(ctx, plan, format));
      },
    );
  }
}
