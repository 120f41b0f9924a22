/**
 * The setup wizard's content steps, over the same services as
 * `PUT /api/v1/events/{e}/consent_documents/{type}` and `PUT|DELETE /api/v1/events/{e}/images/{kind}`:
 * - POST …/setup/consents/{type}: saves one consent document with its text in each other offered
 *   language (`tr_<code>_title|body`, blank = none; 422 → the form again, field marked);
 * - POST …/setup/images/{kind}: a `multipart/form-data` upload (@fastify/multipart in this scope
 *   only). The body is parsed in preValidation, after the web scope's CSRF check, so these forms
 *   carry the CSRF token in their action URL (`?_csrf=`; web.plugin.ts reads it there too). A file
 *   over 2 MB is cut off and refused (413), the content is sniffed like the API (415).
 * - POST …/setup/images/{kind}/remove: unsets the image.
 */
import multipart, { type MultipartFile } from '@fastify/multipart';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { type Api, typed } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { CONSENT_DOCUMENT_TYPES } from '../events/consent-defaults.js';
import { saveConsentDocument } from '../events/consent-documents.service.js';
import {
  CONSENT_TYPE_PATTERN,
  createConsentDocument,
  removeConsentDocument,
} from '../events/custom-consent-documents.service.js';
import {
  IMAGE_KINDS,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
  removeEventImage,
  storeEventImage,
  uploadError,
} from '../events/event-images.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { renderStep, setupUrl } from './setup.web.js';
import { formLanguages, translationsFromForm } from './translation-fields.js';

const PAGE = { action: 'event_setup.manage', credential: 'session_cookie' } as const;
const EventId = Type.String({ pattern: '^[0-9]{1,9}$' });
const DocParams = Type.Object(
  { event_id: EventId, consent_type: Type.String({ pattern: CONSENT_TYPE_PATTERN }) },
  { additionalProperties: false },
);
/** `title`, `body` and per other offered language `tr_<code>_title|body` (translation-fields.ts). */
const DocForm = Type.Record(
  Type.String({ pattern: '^(_csrf|title|body|required|tr_[a-z]{2,3}_(title|body))$' }),
  Type.String({ maxLength: 40_000 }),
  { maxProperties: 50 },
);
const ImageParams = Type.Object(
  { event_id: EventId, kind: Type.Union(IMAGE_KINDS.map((k) => Type.Literal(k))) },
  { additionalProperties: false },
);

/** An uploaded file as the multipart parser leaves it in the body (see `onFile`). */
interface Upload {
  bytes: Buffer;
  mimetype: string;
  truncated: boolean;
}

export function setupContentPages(web: Api, deps: Deps): void {
  web.post(
    '/staff/events/:event_id/setup/consents/:consent_type',
    { config: PAGE, schema: { hide: true, params: DocParams, body: DocForm, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const type = request.params.consent_type;
      const { others } = formLanguages(ctx.access.event);
      const custom = !CONSENT_DOCUMENT_TYPES.includes(type);
      const draft = {
        consent_type: type,
        title: request.body.title ?? '',
        body: request.body.body ?? '',
        translations: translationsFromForm(request.body, others, ['title', 'body'] as const),
        ...(custom ? { required: request.body.required === 'true' } : {}),
      };
      try {
        await saveConsentDocument(ctx, type, draft);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode === 404 || error.statusCode >= 500) throw error;
        const field = error.extra.field === 'body' ? 'body' : 'title';
        const lang = typeof error.extra.language === 'string' ? `${error.extra.language}-` : '';
        return renderStep(deps, reply, ctx.access, error.statusCode, 'consents', {
          draft,
          errors: [{ field: `doc-${type}-${lang}${field}`, message: error.message }],
        });
      }
      return reply.redirect(`${setupUrl(ctx.access.event.id, 'consents')}?done=saved#doc-${type}`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/setup/consents',
    {
      config: PAGE,
      schema: {
        hide: true,
        params: Type.Object({ event_id: EventId }, { additionalProperties: false }),
        body: DocForm,
        response: pageResponses,
      },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const draft = {
        consent_type: '',
        title: request.body.title ?? '',
        body: request.body.body ?? '',
        translations: {},
        required: request.body.required === 'true',
      };
      let type: string;
      try {
        type = (await createConsentDocument(ctx, { ...draft, consent_type: undefined })).consent_document
          .consent_type;
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
        const field = error.extra.field === 'body' ? 'body' : 'title';
        return renderStep(deps, reply, ctx.access, error.statusCode, 'consents', {
          draft,
          errors: [{ field: `doc-new-${field}`, message: error.message }],
        });
      }
      return reply.redirect(`${setupUrl(ctx.access.event.id, 'consents')}?done=saved#doc-${type}`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/setup/consents/:consent_type/remove',
    { config: PAGE, schema: { hide: true, params: DocParams, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      try {
        await removeConsentDocument(ctx, request.params.consent_type);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 409) throw error;
        return renderStep(deps, reply, ctx.access, 409, 'consents', { errors: [{ message: error.message }] });
      }
      return reply.redirect(`${setupUrl(ctx.access.event.id, 'consents')}?done=doc_removed`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/setup/images/:kind/remove',
    { config: PAGE, schema: { hide: true, params: ImageParams, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      await removeEventImage(ctx, request.params.kind);
      return reply.redirect(`${setupUrl(ctx.access.event.id, 'images')}?done=removed`, 303);
    },
  );

  web.register(async (plain) => {
    const scope = typed(plain);
    // A broken multipart body (parsed before the handler) → its 4xx; the web error page renders it.
    scope.setErrorHandler((error) => {
      throw uploadError(error) ?? error;
    });
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      throwFileSizeLimit: false,
      limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 },
      // Keeps the type the browser declared and whether the file was cut at the size limit.
      async onFile(part: MultipartFile) {
        const bytes = await part.toBuffer();
        const value: Upload = { bytes, mimetype: part.mimetype, truncated: part.file.truncated };
        Object.assign(part, { value });
      },
    });
    scope.post(
      '/staff/events/:event_id/setup/images/:kind',
      { config: PAGE, schema: { hide: true, params: ImageParams, response: pageResponses } },
      async (request, reply) => {
        const ctx = routeCtx(deps, request);
        const kind = request.params.kind;
        const file = (request.body as { file?: Upload } | undefined)?.file;
        try {
          if (!file || typeof file !== 'object' || !Buffer.isBuffer(file.bytes) || file.bytes.length === 0)
            throw new ApiError(422, staffText('setup_content.choose_an_image_file_to_upload'));
          if (file.truncated) throw new ApiError(413, IMAGE_TOO_LARGE);
          await storeEventImage(ctx, kind, { bytes: file.bytes, declaredType: file.mimetype });
        } catch (error) {
          if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
          return renderStep(deps, reply, ctx.access, error.statusCode, 'images', {
            errors: [{ field: `f-${kind}`, message: error.message }],
          });
        }
        return reply.redirect(`${setupUrl(ctx.access.event.id, 'images')}?done=uploaded`, 303);
      },
    );
  });
}
