/**
 * The participant sync list is streamed in batches of rows (participants.service LIST_BATCH) and
 * compressed on request (docs/decisions.md "Timestamps and nulls"): the bytes are one JSON document equal to what
 * the per-row SQL serializer builds for each registration, in id order, over several batches;
 * gzip and br decode to the same bytes; small bodies and the SSE scan feed are not compressed.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Visibility } from '../../src/access/policy.js';
import { participantFrom, participantSelect } from '../../src/modules/participants/participants.serialize.js';
import { LIST_BATCH } from '../../src/modules/participants/participants.service.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let w: World;
/** More than two batches of registrations in event A. */
const EXTRA = 2 * LIST_BATCH + 37;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  w = await buildWorld(t.deps);
  const eventId = w.events.A.id;
  await t.deps.db.execute(sql`
    WITH p AS (
      INSERT INTO people (email, legal_first_name, legal_last_name, phone)
      SELECT 'stream' || n || '@example.org', 'Stream', 'Person' || n, '+4477009' || lpad(n::text, 5, '0')
        FROM generate_series(1, ${EXTRA}) n RETURNING id)
    INSERT INTO registrations (event_id, person_id, status) SELECT ${eventId}, id, 'complete' FROM p`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const path = () => `/api/v1/events/${w.events.A.id}/participants`;

/** Each registration's participant JSON text from the per-row serializer, ascending id. */
async function expectedRows(v: Visibility): Promise<string[]> {
  const res = await t.deps.db.execute<{ j: string }>(
    sql.raw(
      `SELECT ${participantSelect(v)} FROM ${participantFrom(v)} WHERE r.event_id = ${w.events.A.id} ORDER BY r.id`,
    ),
  );
  return res.rows.map((r) => r.j);
}

describe('GET /events/{e}/participants streamed in batches', () => {
  it('is one JSON document: every row as the serializer builds it, in id order, across batches', async () => {
    const res = await app.inject({ method: 'GET', url: path(), headers: bearer(w.secrets.admin) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body) as {
      participants: { participant_event_id: number }[];
      synced_at: string;
    };
    const rows = await expectedRows({ pii: true, sensitive: true });
    expect(rows.length).toBeGreaterThan(2 * LIST_BATCH);
    expect(res.body).toBe(`{"participants":[${rows.join(',')}],"synced_at":"${body.synced_at}"}`);
  });

  it('applies the caller’s visibility in every batch', async () => {
    const res = await app.inject({ method: 'GET', url: path(), headers: bearer(w.secrets.ops) });
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body) as { participants: Record<string, unknown>[] };
    expect(body.participants.length).toBeGreaterThan(2 * LIST_BATCH);
    for (const p of body.participants) expect(p).not.toHaveProperty('allergies');
  });

  it('a delta sync with nothing changed is an empty list', async () => {
    const full = JSON.parse(
      (await app.inject({ method: 'GET', url: path(), headers: bearer(w.secrets.admin) })).body,
    ) as { synced_at: string };
    const res = await app.inject({
      method: 'GET',
      url: `${path()}?updated_since=${encodeURIComponent(full.synced_at)}`,
      headers: bearer(w.secrets.admin),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^\{"participants":\[\],"synced_at":"[^"]+"\}$/);
  });
});

describe('compression (docs/decisions.md "Timestamps and nulls")', () => {
  const plain = async () => {
    const res = await app.inject({ method: 'GET', url: path(), headers: bearer(w.secrets.admin) });
    expect(res.headers['content-encoding']).toBeUndefined();
    return res.body.replace(/"synced_at":"[^"]*"/, '');
  };

  it('gzip and br decode to the uncompressed body; br is preferred when both are accepted', async () => {
    const expected = await plain();
    for (const [accept, encoding, decode] of [
      ['gzip', 'gzip', gunzipSync],
      ['br', 'br', brotliDecompressSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
    ] as const) {
      const res = await app.inject({
        method: 'GET',
        url: path(),
        headers: { ...bearer(w.secrets.admin), 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.rawPayload.length).toBeLessThan(expected.length / 4);
      const text = decode(res.rawPayload).toString('utf8');
      expect(text.replace(/"synced_at":"[^"]*"/, '')).toBe(expected);
    }
  });

  it('leaves bodies under 1 KB uncompressed', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/healthz',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('does not compress or buffer the SSE scan feed', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    const controller = new AbortController();
    try {
      const res = await fetch(
        `http://127.0.0.1:${address.port}/api/v1/events/${w.events.A.id}/scans/stream`,
        {
          headers: { ...bearer(w.secrets.admin), 'accept-encoding': 'gzip, br' },
          signal: controller.signal,
        },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('content-encoding')).toBeNull();
      // The first comment arrives at once, before any scan: nothing holds it back.
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain(': connected');
    } finally {
      controller.abort();
    }
  });
});
