/**
 * Inbound receivers, signature layer (docs/decisions.md "Messaging"; quality.md "Webhooks"), per receiver: a valid
 * signature is 200 with one dedupe row and one job; a tampered body, a wrong secret, a missing
 * signature or a stale timestamp is 401 with nothing written; a replay is 200 `duplicate:true` with
 * no second row or job; and fuzzed bodies carrying VALID signatures never produce a 5xx.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import {
  PROVIDERS,
  type Provider,
  SECRETS,
  signedRequest,
  webhookJobCount,
  webhookRowCount,
} from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(SECRETS);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

let seq = 0;
/** A well-formed event of each provider, unique per call. */
function sample(provider: Provider): string {
  seq += 1;
  switch (provider) {
    case 'email':
      return JSON.stringify({
        RecordType: 'Bounce',
        ID: 9000 + seq,
        Type: 'SoftBounce',
        Email: `s${seq}@example.org`,
      });
    case 'helpdesk':
      return JSON.stringify({
        id: 7000 + seq,
        subject: 'Help',
        primaryCustomer: { id: 1, email: `h${seq}@example.org` },
      });
    case 'esign':
      return JSON.stringify({
        event_type: 'form.viewed',
        timestamp: '2026-11-24T10:00:00Z',
        data: { id: seq, submission_id: 1 },
      });
    case 'chat':
      return JSON.stringify({
        type: 'event_callback',
        event_id: `Ev${seq}`,
        event: { type: 'user_change', user: { id: `U${seq}`, profile: { email: `c${seq}@example.org` } } },
      });
  }
}

async function expectNothingWritten(fn: () => Promise<void>) {
  const before = await snapshotDb(t.deps);
  const jobs = await webhookJobCount(t);
  await fn();
  expect(await snapshotDb(t.deps)).toEqual(before);
  expect(await webhookJobCount(t)).toBe(jobs);
}

const STALE = () => Math.floor(Date.now() / 1000) - 6 * 60;
const UNAUTHORIZED = { error: 'Invalid or expired webhook signature' };

describe.each(PROVIDERS)('POST /webhooks/%s', (provider) => {
  it('accepts a valid signature: 200, one row, one job; an Authorization header changes nothing', async () => {
    const rows = await webhookRowCount(t);
    const jobs = await webhookJobCount(t);
    const res = await t.app.inject(
      signedRequest(provider, sample(provider), { headers: { authorization: 'Bearer garbage' } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await webhookRowCount(t)).toBe(rows + 1);
    expect(await webhookJobCount(t)).toBe(jobs + 1);
  });

  it('drops a replay: 200 duplicate, no second row or job', async () => {
    const body = sample(provider);
    expect((await t.app.inject(signedRequest(provider, body))).statusCode).toBe(200);
    await expectNothingWritten(async () => {
      const again = await t.app.inject(signedRequest(provider, body));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ received: true, duplicate: true });
    });
  });

  it('refuses a tampered body, a wrong secret and a missing signature: 401, nothing written', async () => {
    const body = sample(provider);
    await expectNothingWritten(async () => {
      const tampered = `${body.slice(0, -1)},"injected":true}`;
      for (const req of [
        signedRequest(provider, body, { sendBody: tampered }),
        signedRequest(provider, body, { secret: 'not-the-secret-at-all' }),
        {
          method: 'POST' as const,
          url: `/api/v1/webhooks/${provider}`,
          headers: { 'content-type': 'application/json' },
          payload: body,
        },
      ]) {
        const res = await t.app.inject(req);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(UNAUTHORIZED);
      }
    });
  });

  it.skipIf(provider === 'helpdesk')(
    'refuses a stale or future timestamp: 401, nothing written',
    async () => {
      const body = sample(provider);
      await expectNothingWritten(async () => {
        for (const timestamp of [STALE(), Math.floor(Date.now() / 1000) + 6 * 60]) {
          const res = await t.app.inject(signedRequest(provider, body, { timestamp }));
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual(UNAUTHORIZED);
        }
      });
    },
  );

  it('answers a validly signed non-JSON body 400 and a shapeless one 422, writing nothing', async () => {
    await expectNothingWritten(async () => {
      const bad = await t.app.inject(signedRequest(provider, '{"nope'));
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: 'Malformed JSON body' });
      const arr = await t.app.inject(signedRequest(provider, '[1,2]'));
      expect(arr.statusCode).toBe(422);
      expect(arr.json()).toEqual({ error: 'Body must be a JSON object' });
    });
  });

  it('fuzz: validly signed arbitrary bodies never answer ≥ 500', async () => {
    const bodies = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
      fc
        .record(
          {
            RecordType: fc.constantFrom('Bounce', 'Delivery', 'Open', 'SpamComplaint', 'x'),
            ID: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
            MessageID: fc.string(),
            Metadata: fc.anything(),
            event_type: fc.constantFrom('form.viewed', 'form.completed', 'submission.expired', ''),
            timestamp: fc.oneof(fc.string(), fc.integer()),
            data: fc.anything(),
            type: fc.constantFrom('event_callback', 'url_verification', 'app_rate_limited'),
            event_id: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
            challenge: fc.oneof(fc.string(), fc.integer()),
            event: fc.anything(),
            id: fc.anything(),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.string({ maxLength: 60 }), async (body, event) => {
        const res = await t.app.inject(signedRequest(provider, body, { event }));
        expect(res.statusCode, res.body).toBeLessThan(500);
        const json = res.json() as Record<string, unknown>;
        if (res.statusCode >= 400) expect(Object.keys(json)).toEqual(['error']);
      }),
      { numRuns: 120 },
    );
  }, 120_000);
});

describe('raw body parsing', () => {
  it('verifies the exact bytes: a re-serialised body with the original signature is refused', async () => {
    const body = '{ "type":"event_callback", "event_id":"EvSpacing", "event":{"type":"x"} }';
    const req = signedRequest('chat', body, { sendBody: JSON.stringify(JSON.parse(body)) });
    expect((await t.app.inject(req)).statusCode).toBe(401);
    expect((await t.app.inject(signedRequest('chat', body))).statusCode).toBe(200);
  });

  it('echoes the Slack url_verification challenge without writing anything', async () => {
    await expectNothingWritten(async () => {
      const body = JSON.stringify({
        token: 'legacy',
        challenge: 'abc123challenge',
        type: 'url_verification',
      });
      const res = await t.app.inject(signedRequest('chat', body));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ challenge: 'abc123challenge' });
    });
  });
});

describe('delivery edge cases', () => {
  it('parallel identical deliveries: one row, one job, the rest duplicates', async () => {
    const rows = await webhookRowCount(t);
    const jobs = await webhookJobCount(t);
    const body = sample('chat');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.app.inject(signedRequest('chat', body))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.json().duplicate === false)).toHaveLength(1);
    expect(await webhookRowCount(t)).toBe(rows + 1);
    expect(await webhookJobCount(t)).toBe(jobs + 1);
  });

  it('any content type (or none) is verified on its bytes', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const req = signedRequest('esign', sample('esign'));
      const headers = { ...(req.headers as Record<string, string>) };
      if (type) headers['content-type'] = type;
      else delete headers['content-type'];
      const res = await t.app.inject({ ...req, headers });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
    }
  });

  it('a body over 1 MiB is 413 and writes nothing', async () => {
    const big = JSON.stringify({ RecordType: 'Open', pad: 'x'.repeat(1024 * 1024) });
    await expectNothingWritten(async () => {
      const res = await t.app.inject(signedRequest('email', big));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: 'Request body is too large' });
    });
  });
});
