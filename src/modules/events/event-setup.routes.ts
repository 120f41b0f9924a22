/**
 * Event setup content: the event's consent documents
 * (`GET|POST /events/{e}/consent_documents`, `PUT|DELETE /events/{e}/consent_documents/{type}`), logo and banner upload
 * (`PUT|DELETE /events/{e}/images/{kind}`, multipart) and the public image files (`GET /media/…`).
 * Multipart parsing (@fastify/multipart) is registered in this scope only; the rest of the API
 * stays JSON-only.
 */
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import { type Api, typed } from '../../http/typed.js';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { listConsentDocuments, saveConsentDocument } from './consent-documents.service.js';
import { createConsentDocument, removeConsentDocument } from './custom-consent-documents.service.js';
import {
  eventImages,
  IMAGE_MAX_BYTES,
  readMediaFile,
  removeEventImage,
  storeEventImage,
  uploadError,
} from './event-images.service.js';
import {
  ConsentDocument,
  DocumentParams,
  DocumentRequest,
  EventImages,
  ImageParams,
  NewDocumentRequest,
} from './event-setup.schemas.js';

const tags = ['series'];
const WHO =
  'Callers: event managers (global admin, series owner/organizer, `event_admin`) and the series API key of the event’s series, like `PATCH /series/{s}/events/{e}`; event API keys 403. `{event_id}`: numeric id or UUID.';
const EventParams = Type.Object({ event_id: EventIdParam });
export const MISSING_FILE = 'Send the image as a multipart/form-data field named file';

export function eventSetupRoutes(api: Api, deps: Deps): void {
  api.get(
    '/events/:event_id/consent_documents',
    {
      config: { action: 'event_setup.manage' },
      schema: {
        tags,
        summary: 'The consent documents of an event',
        description: `Every built-in consent type (\`waiver\`, \`freedom_waiver\`, \`code_of_conduct\`) with the event’s current version, or the built-in text (\`version\` null) while the event has not saved its own; then the event’s custom documents (\`custom\` true) in the order they were added. \`required\`: whether signing it is needed to complete registration. ${WHO}`,
        params: EventParams,
        response: {
          200: Type.Object({ consent_documents: Type.Array(ConsentDocument) }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => listConsentDocuments(routeCtx(deps, request)),
  );

  api.put(
    '/events/:event_id/consent_documents/:consent_type',
    {
      config: { action: 'event_setup.manage' },
      schema: {
        tags,
        summary: 'Save an event’s consent document',
        description: `Saves \`title\` (1–200 characters) and \`body\` (plain text, paragraphs separated by a blank line, 1–20,000 characters). The first save stores version 1; later saves edit the current version while no signature records it, and add version + 1 once someone has signed it (a signature keeps the version it signed). Per offered language: \`translations\` (\`{es: {title, body}}\`, same rules; the title and body are the event’s default language). Without \`translations\` the current ones are kept if \`title\` and \`body\` are unchanged, else dropped (a translation belongs to the text it translates); \`{}\` removes them. A signature records the version and the language of the text shown. For a custom document (\`custom\` true) \`required\` may be given too (absent: kept); for a built-in one it is a 422 (their requirement follows the modules). Unknown type → 404; empty or too long → 422 \`{error}\` naming the field; a translation key that is not an offered language, or is the default one → 422; a simultaneous save of the same document → 409. Audited \`consent_documents.update\`. With an e-signature provider configured the signing documents live there; these texts are what the typed-signature pages show. ${WHO}`,
        params: DocumentParams,
        body: DocumentRequest,
        response: {
          200: Type.Object({ consent_document: ConsentDocument }),
          ...errorResponses(401, 403, 404, 409, 413, 422),
        },
      },
    },
    async (request) =>
      saveConsentDocument(
        routeCtx(deps, request),
        request.params.consent_type,
        request.body.consent_document,
      ),
  );

  api.post(
    '/events/:event_id/consent_documents',
    {
      config: { action: 'event_setup.manage' },
      schema: {
        tags,
        summary: 'Add a custom consent document to an event',
        description: `Adds an organiser’s own consent document beside the built-in three: \`title\` and \`body\` as in the PUT, \`translations\` per offered language, \`required\` (default false: whether signing it is needed to complete registration) and \`consent_type\`, its stable slug (1–50 lowercase letters, digits or underscores, starting with a letter; absent: made from the title, e.g. “Photo release” → \`photo_release\`). Answers 201 with version 1 (\`custom\` true). From then on it is edited with the PUT (in place while unsigned, a new version once signed; \`required\` may change) and removed with the DELETE while nobody has signed it. A submit asks the participant (a guardian, for minors) to sign every custom document; adding one also asks every registration already submitted (not withdrawn or rejected). Its signatures appear in a participant’s \`consents\` under its \`consent_type\`. 409 \`{error}\` when the event already has a document of that type (the built-in types included); 422 for a bad \`consent_type\`, a title that makes no slug and no \`consent_type\`, or bad text or translations (as the PUT). Audited \`consent_documents.create\`. ${WHO}`,
        params: EventParams,
        body: NewDocumentRequest,
        response: {
          201: Type.Object({ consent_document: ConsentDocument }),
          ...errorResponses(401, 403, 404, 409, 413, 422),
        },
      },
    },
    async (request, reply) => {
      const created = await createConsentDocument(routeCtx(deps, request), request.body.consent_document);
      return reply.status(201).send(created);
    },
  );

  api.delete(
    '/events/:event_id/consent_documents/:consent_type',
    {
      config: { action: 'event_setup.manage' },
      schema: {
        tags,
        summary: 'Remove a custom consent document',
        description: `Removes a custom document with every version, and the unsigned consents asked for it (their registrations’ completion is checked again: one that waited only for it becomes complete). Answers 204. 409 \`{error}\` once anyone has signed any version of it (edit it instead: a new version keeps the signed one); 422 for a built-in type; 404 for an unknown one. Audited \`consent_documents.delete\`. ${WHO}`,
        params: DocumentParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await removeConsentDocument(routeCtx(deps, request), request.params.consent_type);
      return reply.status(204).send(null);
    },
  );

  api.register(async (plain) => {
    const scope = typed(plain);
    await scope.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    scope.put(
      '/events/:event_id/images/:kind',
      {
        config: { action: 'event_setup.manage' },
        schema: {
          tags,
          summary: 'Upload the event’s logo or banner',
          description: `\`multipart/form-data\` with one file field \`file\` (PNG, JPEG or WebP, at most 2 MB). The content decides: its first bytes must be a PNG, JPEG or WebP signature matching the part’s declared type. Stored in the database and served at \`<base URL>/media/<sha256>.<ext>\` (content-hash URL, \`Cache-Control: public, max-age=31536000, immutable\`), which becomes the event’s \`logo_url\` or \`banner_url\` (as in the accessible-event entry of \`GET /api/v1/events\`; Event full does not carry them). Answers \`{logo_url, banner_url}\`. 415 \`{error}\` for another declared type, content that is no such image or does not match the declared type, or a body that is not multipart; 413 over 2 MB or with more than one file; 400 for a broken multipart body (no boundary, cut off) or a raw non-JSON body; 422 without a \`file\` part or for an empty file. Replacing an image keeps the old file (emails already sent still show it). Audited \`events.image_upload\`. ${WHO}`,
          params: ImageParams,
          response: { 200: EventImages, ...errorResponses(400, 401, 403, 404, 413, 415, 422) },
        },
      },
      async (request) => {
        const ctx = routeCtx(deps, request);
        if (!request.isMultipart()) throw new ApiError(415, MISSING_FILE);
        let upload: { bytes: Buffer; declaredType: string } | null = null;
        try {
          // Every part is read, so a second file trips the one-file limit (413) instead of being ignored.
          for await (const part of request.parts()) {
            if (part.type !== 'file') continue;
            if (part.fieldname !== 'file') throw unprocessable(MISSING_FILE);
            upload = { bytes: await part.toBuffer(), declaredType: part.mimetype };
          }
        } catch (error) {
          throw uploadError(error) ?? error;
        }
        if (!upload) throw unprocessable(MISSING_FILE);
        await storeEventImage(ctx, request.params.kind, upload);
        return eventImages(ctx.db, ctx.access.event.id);
      },
    );
  });

  api.delete(
    '/events/:event_id/images/:kind',
    {
      config: { action: 'event_setup.manage' },
      schema: {
        tags,
        summary: 'Remove the event’s logo or banner',
        description: `Sets \`logo_url\` or \`banner_url\` to null (the file stays available at its URL); answers \`{logo_url, banner_url}\`. Audited \`events.image_remove\`. ${WHO}`,
        params: ImageParams,
        response: { 200: EventImages, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const ctx = routeCtx(deps, request);
      await removeEventImage(ctx, request.params.kind);
      return eventImages(ctx.db, ctx.access.event.id);
    },
  );
}

/** `GET /media/<sha256>.<ext>`: an uploaded image, public, cached for a year (the URL names the bytes). */
export function mediaRoutes(app: Api, deps: Deps): void {
  app.get(
    '/media/:file',
    {
      config: { public: 'none' },
      schema: {
        hide: true,
        params: Type.Object({ file: Type.String({ pattern: '^[0-9a-f]{64}\\.(png|jpg|webp)$' }) }),
      },
    },
    async (request, reply) => {
      const [sha256, ext] = request.params.file.split('.') as [string, string];
      const file = await readMediaFile(deps.db, sha256, ext);
      if (!file) return reply.status(404).send({ error: 'Not found' });
      return reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('ETag', `"${sha256}"`)
        .type(file.contentType)
        .send(file.data);
    },
  );
}
