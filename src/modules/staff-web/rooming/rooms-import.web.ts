/**
 * POST /staff/events/{e}/rooms/import (`rooming.manage`; docs/rooming.md "Pages"): rooms from a CSV
 * pasted into the box or uploaded as a file (the file wins when both are given), through the same
 * import service as `POST /api/v1/events/{e}/rooms/import` (all or nothing, audited
 * `rooms.import`). The form is `multipart/form-data` (@fastify/multipart in this scope only), so it
 * carries the CSRF token in its action URL as the setup wizard's image uploads do. The service's 422
 * (`Line 3: …`) is shown next to the CSV box with the pasted text kept.
 */
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { type Api, typed } from '../../../http/typed.js';
import { ApiError } from '../../../lib/errors.js';
import { staffText } from '../../../lib/i18n/staff.js';
import { errorCode, propOf, stringProp } from '../../../lib/narrow.js';
import { importRooms } from '../../rooming/rooms.import.js';
import { pageResponses } from '../../web/web.schemas.js';
import { attempt } from '../org-pages.js';
import { EventParams, roomsPageData } from './rooms.web.js';

const manage = { action: 'rooming.manage', credential: 'session_cookie' } as const;
const CSV_MAX_BYTES = 2_000_000;
const TOO_LARGE = staffText('rooms_import.too_large');

/** A broken or oversized upload as a 4xx (the error page renders it). */
function uploadProblem(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const code = errorCode(error);
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT')
    return new ApiError(413, TOO_LARGE);
  if (
    code === 'FST_PROTO_VIOLATION' ||
    /multipart|boundary|unexpected end of form/i.test(stringProp(error, 'message') ?? '')
  )
    return new ApiError(400, staffText('rooms_import.malformed_body'));
  return null;
}

export function roomsImportPage(web: Api, deps: Deps): void {
  web.register(async (plain) => {
    const scope = typed(plain);
    scope.setErrorHandler((error) => {
      throw uploadProblem(error) ?? error;
    });
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      throwFileSizeLimit: false,
      limits: { fileSize: CSV_MAX_BYTES, fieldSize: CSV_MAX_BYTES, files: 1, fields: 3, parts: 4 },
      async onFile(part: MultipartFile) {
        const bytes = await part.toBuffer();
        Object.assign(part, { value: { text: bytes.toString('utf8'), truncated: part.file.truncated } });
      },
    });
    scope.post(
      '/staff/events/:event_id/rooms/import',
      { config: manage, schema: { hide: true, params: EventParams, response: pageResponses } },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        const pasted = stringProp(request.body, 'csv') ?? '';
        const file = propOf(request.body, 'file');
        if (propOf(file, 'truncated')) throw new ApiError(413, TOO_LARGE);
        const text = stringProp(file, 'text');
        const csv = text?.trim() ? text : pasted;
        const res = csv.trim()
          ? await attempt(() => importRooms(ctx, csv))
          : { error: staffText('rooms_import.paste_the_csv_into_the_box') };
        if ('ok' in res)
          return reply.redirect(`/staff/events/${ctx.access.event.id}/rooms?done=imported`, 303);
        return reply.page(
          422,
          'staff/rooms',
          await roomsPageData(ctx, {
            csv: pasted,
            fieldErrors: { 'rooms-csv': res.error },
            errors: [{ message: res.error, field: 'rooms-csv' }],
          }),
        );
      },
    );
  });
}
