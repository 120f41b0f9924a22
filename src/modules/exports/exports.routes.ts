/** Participant export routes (organiser API; docs/exports.md). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import { type Api, sendStream } from '../../http/typed.js';
import { EXPORT_MEDIA, ExportQuerySchema } from './exports.schemas.js';
import { type ExportFormat, planExport, streamExport } from './exports.service.js';
import { PRESET_NAMES } from './presets.js';

const Params = Type.Object({
  event_id: EventIdParam,
  preset: Type.String({ minLength: 1, maxLength: 50, description: PRESET_NAMES.join(' | ') }),
});
const DESCRIPTION =
  'Spreadsheets: `roster`, `medical`, `dietary` (names and diets, sensitive), `catering` (counts only, no names), `rooming`, `travel` (one row per leg), `emergency_contacts`, `full`. Columns follow the caller’s visibility like the participants API: PII (phone, date of birth, address, origin address) is left out for `limited`, sensitive columns for everyone but global admins and safeguarding leads; `medical`, `dietary` and `emergency_contacts` are 403 `This export needs access to medical and safeguarding data` for them (nothing audited). Medical, dietary, catering and emergency lists hold complete registrations unless `status` says otherwise, sorted by last name. Unknown preset → 404 `Export preset not found`; a preset without this format → 404. Unknown filter values → 422. Headers in words unless `headers=keys`. Streamed in batches. Audited when the file ends (`exports.create`: preset, format, row_count, filters). Users with participants access (not `read_only`); API keys 403. `{event_id}`: numeric id or UUID. docs/exports.md.';
const FORMAT_TEXT: Record<ExportFormat, string> = {
  csv: "UTF-8 with a byte order mark, CRLF line ends; every value holding a line feed or carriage return is quoted, and a text cell starting with `= + - @`, tab or CR gets a leading `'` (formula injection). A phone that is valid E.164 is written as is (`+447700900123`). Times are `YYYY-MM-DD HH:MM` in the event’s time zone (ISO 8601 UTC with `headers=keys`); booleans `Yes`/`No` (`yes`/`no`).",
  xlsx: 'A sheet named after the preset with typed cells (dates and times as dates in the event’s time zone, booleans, numbers), a bold frozen header row, an autofilter and column widths; a second sheet "About" says who exported what, when, with which filters.',
  pdf: 'Printouts, streamed page by page: `badges` (name, pronouns, group colour, ticket QR code = registration UUID; `layout`, `photos`), `door_list` (per `scan_context`: name, status, under 18, alerts in words, a tick box; by last name with letter headings), `medical_cards` (one card per participant; safeguarding leads and global admins only), `emergency_sheet` (emergency contacts for a trip: filter by `group` or `scan_context`; safeguarding leads and global admins only). Complete registrations unless `status` says otherwise.',
};

export function exportRoutes(
  app: Api,
  deps: Deps,
  formats: readonly ExportFormat[] = ['csv', 'xlsx', 'pdf'],
): void {
  for (const format of formats) {
    app.get(
      `/events/:event_id/exports/:preset.${format}`,
      {
        config: { action: 'exports.read' },
        schema: {
          tags: ['exports'],
          summary: `Export participants as ${format.toUpperCase()}`,
          description: `${FORMAT_TEXT[format]} ${DESCRIPTION}`,
          params: Params,
          querystring: ExportQuerySchema,
          produces: [EXPORT_MEDIA[format]],
          response: {
            200: Type.String({ description: `The ${format.toUpperCase()} file` }),
            ...errorResponses(401, 403, 404, 422),
          },
        },
      },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        const plan = await planExport(ctx, request.params.preset, format, request.query);
        reply
          .header('Content-Type', EXPORT_MEDIA[format])
          .header('Content-Disposition', `attachment; filename="${plan.filename}.${format}"`)
          .header('Cache-Control', 'no-store');
        return sendStream(reply, streamExport(ctx, plan));
      },
    );
  }
}
