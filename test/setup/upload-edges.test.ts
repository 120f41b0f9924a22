/**
 * Malformed uploads never reach a 500 (bad input → 4xx `{error}`): a raw image body (400, an
 * unsupported content type, docs/decisions.md "Status codes and check order"), a multipart header without a boundary or a body cut off
 * mid-part (400), two files (413).
 */
import { describe, expect, it } from 'vitest';
import { withWorld } from '../events/harness.js';
import { bearer, snapshotDb } from '../support/app.js';
import { imageUpload, multipart, png } from './fixtures.js';

const env = withWorld();

const put = (headers: Record<string, string>, payload: Buffer | string) =>
  env.t.app.inject({
    method: 'PUT',
    url: `/api/v1/events/${env.w.events.A.id}/images/logo`,
    headers: { ...bearer(env.w.secrets.eventAdmin), ...headers },
    payload,
  });

describe('malformed uploads', () => {
  it('answer 4xx {error} and change nothing', async () => {
    const before = await snapshotDb(env.t.deps);
    const good = imageUpload(png());
    const cases: [string, Record<string, string>, Buffer | string][] = [
      ['raw PNG body', { 'content-type': 'image/png' }, png()],
      ['no boundary', { 'content-type': 'multipart/form-data' }, good.payload],
      ['cut off', good.headers, good.payload.subarray(0, good.payload.length - 40)],
      [
        'two files',
        multipart([
          { name: 'file', value: png(), filename: 'a.png', type: 'image/png' },
          { name: 'file', value: png(2), filename: 'b.png', type: 'image/png' },
        ]).headers,
        multipart([
          { name: 'file', value: png(), filename: 'a.png', type: 'image/png' },
          { name: 'file', value: png(2), filename: 'b.png', type: 'image/png' },
        ]).payload,
      ],
    ];
    const seen: Record<string, number> = {};
    for (const [name, headers, payload] of cases) {
      const res = await put(headers, payload);
      seen[name] = res.statusCode;
      expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, name).toBeLessThan(500);
      expect(Object.keys(res.json()), name).toEqual(['error']);
    }
    expect(seen).toEqual({ 'raw PNG body': 400, 'no boundary': 400, 'cut off': 400, 'two files': 413 });
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });
});
