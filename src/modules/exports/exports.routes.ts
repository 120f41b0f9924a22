/** Participant export routes (organiser API; docs/organiser-api.md "Exports"). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import { type Api, sendStream } from '../../http/typed.js';
import { type ExportFormat, planExport, streamExport } from './exports.service.js';
import { PRESET_NAMES } from './presets.js';

const Params = Type.Object({
  event_id: EventIdParam,
  preset: Type.String({ minLength: 1, maxLength: 50, description: PRESET_NAMES.join(' | ') }),
});
const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
const Query = Type.Object(
  {
    status: Type.Optional(
      Type.String({ maxLength: 200, description: 'Comma-separated registration statuses to include' }),
    ),
    minor: Type.Optional(Bool),
    checked_in: Type.Optional(Bool),
  },
  { additionalProperties: false },
);
const MEDIA = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
const DESCRIPTION =
  'Presets: `roster` (name, email, status, checked in), `medical` (allergies, medical details and emergency action plan, emergency contacts), `dietary`, `rooming` (accommodation, assigned room), `travel` (one row per leg, with pickup state), `emergency_contacts`, `full` (every field the caller may see). Columns follow the caller’s visibility like the participants API: PII columns (phone, date of birth, address, origin address) are left out for `limited`, sensitive ones (medical, dietary details, safeguarding, contacts) for everyone but global admins and safeguarding leads; `medical` and `emergency_contacts` are 403 `This export needs access to medical and safeguarding data` for them (nothing audited). Unknown preset → 404 `Export preset not found`. Filters: `status` (comma-separated; unknown → 422), `minor` (under 18 on the event’s first day), `checked_in`. Rows by registration id; streamed in batches. Audited when the file ends (`exports.create`: preset, format, row_count, filters). Users with participants access (not `read_only`); API keys 403. `{event_id}`: numeric id or UUID.';

export function exportRoutes(app: Api, deps: Deps): void {
  for (const format of ['csv', 'xlsx'] as const satisfies ExportFormat[]) {
    app.get(
      `/events/:event_id/exports/:preset.${format}`,
      {
        config: { action: 'exports.read' },
        schema: {
          tags: ['exports'],
          summary: `Export participants as ${format.toUpperCase()}`,
          description:
            format === 'csv'
              ? `UTF-8 with a byte order mark, CRLF line ends; cells starting with \`= + - @\`, tab or CR are prefixed with \`'\` (formula injection). ${DESCRIPTION}`
              : `One worksheet named after the preset; a header row, then text cells. ${DESCRIPTION}`,
          params: Params,
          querystring: Query,
          produces: [MEDIA[format]],
          response: {
            200: Type.String({ description: `The ${format.toUpperCase()} file` }),
            ...errorResponses(401, 403, 404, 422),
          },
        },
      },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        const plan = planExport(ctx, request.params.preset, request.query);
        reply
          .header('Content-Type', MEDIA[format])
          .header('Content-Disposition', `attachment; filename="${plan.filename}.${format}"`)
          .header('Cache-Control', 'no-store');
        return sendStream(reply, streamExport(ctx, plan, format));
      },
    );
  }
}
