/**
 * A receiver whose provider secret is not configured answers 503 `{error}` (contract §6; quality.md
 * "no secret configured → 503") — whatever it is sent, signed or not — and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { type PROVIDERS, signedRequest, webhookJobCount } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  // Only the chat secret is set: the other three are unconfigured; chat is checked separately.
  t = await startTestApp({ MUSTER_CHAT_SIGNING_SECRET: 'chat-signing-secret-0123456789' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const MESSAGES = {
  email: 'The email provider webhook is not configured',
  helpdesk: 'The help desk webhook is not configured',
  esign: 'The e-signature webhook is not configured',
};

describe('unconfigured receivers', () => {
  it.each(Object.entries(MESSAGES))('POST /webhooks/%s → 503, nothing written', async (provider, error) => {
    const before = await snapshotDb(t.deps);
    const jobs = await webhookJobCount(t);
    const body = JSON.stringify({ RecordType: 'Delivery', event_type: 'form.viewed', id: 1 });
    for (const req of [
      signedRequest(provider as (typeof PROVIDERS)[number], body),
      { method: 'POST' as const, url: `/api/v1/webhooks/${provider}`, payload: 'not json' },
    ]) {
      const res = await t.app.inject(req);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error });
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
    expect(await webhookJobCount(t)).toBe(jobs);
  });

  it('a configured receiver next to them still works', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c-1' });
    const res = await t.app.inject(signedRequest('chat', body));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ challenge: 'c-1' });
  });
});
