/**
 * Event logo and banner (spec Event `logo_url`/`banner_url`,
 * docs/decisions.md "Timestamps and nulls": null when unset). An upload is checked by its content — the first bytes must be a
 * PNG, JPEG or WebP signature, and match the type the client declared — stored in `media_files`
 * (the database, so every process behind one PostgreSQL serves it) and published at
 * `<MUSTER_BASE_URL>/media/<sha256>.<ext>`, a URL whose bytes never change (cached for a year).
 * Replacing or removing an image leaves the old file in place: emails already sent still show it.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { EventCtx } from '../../deps.js';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { errorCode, stringProp } from '../../lib/narrow.js';
import { recordAudit } from '../audit/audit.service.js';

export const IMAGE_KINDS = ['logo', 'banner'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];
/** Largest accepted image, in bytes (2 MiB). */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TOO_LARGE = 'The image is larger than 2 MB';
export const IMAGE_TYPE_REFUSED = 'Only PNG, JPEG or WebP images can be uploaded';
export const IMAGE_EMPTY = 'The file is empty';

const EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as const;
export type ImageType = keyof typeof EXTENSIONS;
const TYPE_BY_EXTENSION = new Map<string, ImageType>(
  Object.entries(EXTENSIONS).map(([t, e]) => [e, t as ImageType]),
);

/** The image type the bytes start with (PNG, JPEG or WebP signature), or null. */
export function sniffImageType(bytes: Buffer): ImageType | null {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(png)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'image/webp';
  return null;
}

/**
 * The checked type of an upload: 415 `{error}` when the declared type is not PNG/JPEG/WebP, when
 * the content is none of them, or when content and declared type differ; 422 when empty.
 */
export function checkImage(bytes: Buffer, declaredType: string): ImageType {
  if (bytes.length === 0) throw unprocessable(IMAGE_EMPTY);
  const declared = declaredType.split(';')[0]!.trim().toLowerCase();
  if (!(declared in EXTENSIONS)) throw new ApiError(415, IMAGE_TYPE_REFUSED);
  const sniffed = sniffImageType(bytes);
  if (!sniffed) throw new ApiError(415, `The file's content is not a PNG, JPEG or WebP image`);
  if (sniffed !== declared) throw new ApiError(415, `The file's content is ${sniffed}, not ${declared}`);
  return sniffed;
}

const MALFORMED = /multipart|boundary|unexpected end of form|part terminated|malformed part header/i;

/**
 * The 4xx for an error raised while reading a multipart upload (busboy and @fastify/multipart):
 * too large → 413 `IMAGE_TOO_LARGE`, more than one file or too many parts → 413, a broken body
 * (no boundary, cut off) → 400; null for anything else (a real fault: rethrow).
 */
export function uploadError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const code = errorCode(error);
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError(413, IMAGE_TOO_LARGE);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new ApiError(413, 'Send one image file per request');
  if (MALFORMED.test(stringProp(error, 'message') ?? '') || code === 'ERR_STREAM_PREMATURE_CLOSE')
    return new ApiError(400, 'Malformed multipart/form-data body');
  return null;
}

const column = (kind: ImageKind) => sql.raw(kind === 'logo' ? 'logo_url' : 'banner_url');

async function setImageUrl(tx: Tx, ctx: EventCtx, kind: ImageKind, url: string | null, metadata: object) {
  const { event } = ctx.access;
  await tx.execute(
    sql`UPDATE events SET ${column(kind)} = ${url}, updated_at = now() WHERE id = ${event.id}`,
  );
  await recordAudit(tx, {
    action: url ? 'events.image_upload' : 'events.image_remove',
    principal: ctx.access.principal,
    eventId: event.id,
    seriesId: event.seriesId,
    targetType: 'event',
    targetId: event.id,
    metadata: { kind, ...metadata },
  });
}

/**
 * Stores `bytes` (checked by `checkImage`) as the event's logo or banner and returns its URL.
 * Audited `events.image_upload` (metadata: kind, sha256, size, content_type).
 */
export async function storeEventImage(
  ctx: EventCtx,
  kind: ImageKind,
  upload: { bytes: Buffer; declaredType: string },
): Promise<string> {
  const type = checkImage(upload.bytes, upload.declaredType);
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
  const url = `${ctx.config.baseUrl}/media/${sha256}.${EXTENSIONS[type]}`;
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO media_files (sha256, content_type, size, data, event_id)
      VALUES (${sha256}, ${type}, ${upload.bytes.length}, ${upload.bytes}, ${ctx.access.event.id})
      ON CONFLICT (event_id, sha256) DO NOTHING`);
    await setImageUrl(tx, ctx, kind, url, { sha256, size: upload.bytes.length, content_type: type });
  });
  return url;
}

/** Unsets the event's logo or banner (`null`); audited `events.image_remove`. */
export async function removeEventImage(ctx: EventCtx, kind: ImageKind): Promise<void> {
  await ctx.db.transaction((tx) => setImageUrl(tx, ctx, kind, null, {}));
}

/** `{logo_url, banner_url}` of an event as stored now. */
export async function eventImages(
  db: Tx,
  eventId: number,
): Promise<{ logo_url: string | null; banner_url: string | null }> {
  const res = await db.execute<{ logo_url: string | null; banner_url: string | null }>(
    sql`SELECT logo_url, banner_url FROM events WHERE id = ${eventId}`,
  );
  return { logo_url: one(res.rows).logo_url, banner_url: one(res.rows).banner_url };
}

/**
 * The stored file for `/media/<sha256>.<ext>`, or null when unknown or the extension does not
 * match its type.
 */
export async function readMediaFile(
  db: Tx,
  sha256: string,
  ext: string,
): Promise<{ contentType: string; data: Buffer } | null> {
  const type = TYPE_BY_EXTENSION.get(ext);
  if (!type) return null;
  const res = await db.execute<{ content_type: string; data: Buffer | Uint8Array }>(sql`
    SELECT content_type, data FROM media_files WHERE sha256 = ${sha256} AND content_type = ${type} LIMIT 1`);
  const row = res.rows[0];
  return row ? { contentType: row.content_type, data: Buffer.from(row.data) } : null;
}

/** `/media/…` path of a logo/banner URL of this server (for pages under a `img-src 'self'` CSP). */
export function mediaPath(url: string | null): string | null {
  if (!url) return null;
  const match = /\/media\/[0-9a-f]{64}\.(png|jpg|webp)$/.exec(url);
  return match ? match[0] : null;
}
