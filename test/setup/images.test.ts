/**
 * Logo and banner upload (organiser-operations issue, item 5): PUT /events/{e}/images/{kind}
 * (multipart) checks the content by its first bytes, stores it in the database and publishes it at
 * a content-hash URL with long cache headers; refusals are exact 4xx `{error}` answers that change
 * nothing. DELETE unsets the URL (docs/decisions.md "Timestamps and nulls": null when unset).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '../../src/modules/events/event-images.service.js';
import { query, withWorld } from '../events/harness.js';
import { bearer, snapshotDb } from '../support/app.js';
import { imageUpload, jpegBytes, multipart, png, webpBytes } from './fixtures.js';

const env = withWorld();
const admin = () => bearer(env.w.secrets.eventAdmin);

function upload(
  kind: string,
  body: { payload: Buffer; headers: Record<string, string> },
  event = env.w.events.A.id,
  auth = admin(),
) {
  return env.t.app.inject({
    method: 'PUT',
    url: `/api/v1/events/${event}/images/${kind}`,
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

describe('PUT /events/{e}/images/{kind}', () => {
  it('stores a PNG logo, points logo_url at its content-hash URL and serves it with long cache headers', async () => {
    const bytes = png(4);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const res = await upload('logo', imageUpload(bytes));
    expect(res.statusCode, res.body).toBe(200);
    const url = `${env.t.deps.config.baseUrl}/media/${sha}.png`;
    expect(res.json().logo_url).toBe(url);
    expect(res.json().banner_url).toBeNull();

    const file = await env.t.app.inject({ method: 'GET', url: `/media/${sha}.png` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers.etag).toBe(`"${sha}"`);
    expect(file.rawPayload.equals(bytes)).toBe(true);

    const audit = await query(
      env,
      `SELECT metadata FROM audit_log WHERE action = 'events.image_upload' AND event_id = $1`,
      [env.w.events.A.id],
    );
    expect(audit).toEqual([
      { metadata: { kind: 'logo', sha256: sha, size: bytes.length, content_type: 'image/png' } },
    ]);
    // The same file again: one stored copy, same URL.
    expect((await upload('logo', imageUpload(bytes))).json().logo_url).toBe(url);
    expect(await query(env, 'SELECT count(*)::int AS n FROM media_files WHERE sha256 = $1', [sha])).toEqual([
      { n: 1 },
    ]);
  });

  it('accepts JPEG and WebP (banner), each under its own extension', async () => {
    const jpeg = await upload('banner', imageUpload(jpegBytes(), 'image/jpeg', 'b.jpg'));
    expect(jpeg.statusCode, jpeg.body).toBe(200);
    expect(jpeg.json().banner_url).toMatch(/\/media\/[0-9a-f]{64}\.jpg$/);
    const webp = await upload('banner', imageUpload(webpBytes(), 'image/webp', 'b.webp'));
    expect(webp.statusCode, webp.body).toBe(200);
    const path = new URL(webp.json().banner_url).pathname;
    expect(path).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    const served = await env.t.app.inject({ method: 'GET', url: path });
    expect(served.headers['content-type']).toBe('image/webp');
    // The extension must match the stored type.
    const wrongExt = await env.t.app.inject({ method: 'GET', url: path.replace('.webp', '.png') });
    expect(wrongExt.statusCode).toBe(404);
    expect(wrongExt.json()).toEqual({ error: 'Not found' });
  });

  const refusals: [string, () => { payload: Buffer; headers: Record<string, string> }, number, string][] = [
    [
      'a GIF (type not allowed)',
      () => imageUpload(Buffer.from('GIF89a....'), 'image/gif', 'x.gif'),
      415,
      'Only PNG, JPEG or WebP images can be uploaded',
    ],
    [
      'HTML declared as PNG (sniffed)',
      () => imageUpload(Buffer.from('<html><script>alert(1)</script>'), 'image/png'),
      415,
      "The file's content is not a PNG, JPEG or WebP image",
    ],
    [
      'a JPEG declared as PNG (mismatch)',
      () => imageUpload(jpegBytes(), 'image/png'),
      415,
      "The file's content is image/jpeg, not image/png",
    ],
    [
      'an SVG',
      () => imageUpload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 'x.svg'),
      415,
      'Only PNG, JPEG or WebP images can be uploaded',
    ],
    [
      'over 2 MB',
      () => imageUpload(Buffer.concat([png(), Buffer.alloc(IMAGE_MAX_BYTES)])),
      413,
      'The image is larger than 2 MB',
    ],
    ['an empty file', () => imageUpload(Buffer.alloc(0)), 422, 'The file is empty'],
    [
      'no file part',
      () => multipart([{ name: 'title', value: 'x' }]),
      422,
      'Send the image as a multipart/form-data field named file',
    ],
    [
      'a file under another name',
      () => multipart([{ name: 'logo', value: png(), filename: 'a.png', type: 'image/png' }]),
      422,
      'Send the image as a multipart/form-data field named file',
    ],
  ];

  it.each(refusals)('refuses %s with %i and changes nothing', async (_name, body, status, error) => {
    const before = await snapshotDb(env.t.deps);
    const res = await upload('logo', body());
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error });
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });

  it('refuses a JSON body (415) and an unknown kind (404)', async () => {
    const json = await env.t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${env.w.events.A.id}/images/logo`,
      headers: admin(),
      payload: { url: 'https://evil.example/logo.png' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ error: 'Send the image as a multipart/form-data field named file' });
    const kind = await upload('favicon', imageUpload(png()));
    expect(kind.statusCode).toBe(404);
    expect(kind.json()).toEqual({ error: 'Not found' });
  });
});

describe('DELETE /events/{e}/images/{kind}', () => {
  it('sets the URL to null; the file stays reachable for emails already sent', async () => {
    const owner = bearer(env.w.secrets.seriesOwner);
    const up = await upload('logo', imageUpload(png(2)), env.w.events.B.id, owner);
    const path = new URL(up.json().logo_url).pathname;
    const res = await env.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/events/${env.w.events.B.uuid}/images/logo`,
      headers: owner,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().logo_url).toBeNull();
    expect((await env.t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    const unknown = await env.t.app.inject({ method: 'GET', url: `/media/${'0'.repeat(64)}.png` });
    expect(unknown.statusCode).toBe(404);
  });
});
