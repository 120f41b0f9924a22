/**
 * A receiver whose provider secret is not configured answers 503 `{error}` (docs/decisions.md "Messaging"; quality.md
 * "no secret configured → 503") — whatever it is sent, signed or not — and writes nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../src/jobs/runner.js';
import { acceptEvent } from '../../src/webhooks/intake.service.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { type PROVIDERS, signedRequest, webhookJobCount } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  // No provider secret at all (the default); test/webhooks/signatures.test.ts covers the configured side.
  t = await startTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const MESSAGES = {
  email: 'The email provider webhook is not configured',
  helpdesk: 'The help desk webhook is not configured',
  esign: 'The e-signature webhook is not configured',
  chat: 'The chat webhook is not configured',
};

describe('unconfigured receivers', () => {
  it.each(Object.entries(MESSAGES))('POST /webhooks/%s → 503, nothing written', async (provider, error) => {
    const before = await snapshotDb(t.deps);
    const jobs = await webhookJobCount(t);
    const body = JSON.stringify({
      RecordType: 'Delivery',
      event_type: 'form.viewed',
      id: 1,
      type: 'url_verification',
      challenge: 'c',
    });
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
});

describe('webhook-process batches', () => {
  it('a failing job does not hold back the other events fetched in its batch', async () => {
    await t.deps.db.transaction((tx) =>
      t.deps.jobs.enqueue(tx, 'webhook-process', { webhook_event_id: 'poison' as unknown as number }),
    );
    for (const id of ['EvBatch1', 'EvBatch2', 'EvBatch3']) {
      await acceptEvent(t.deps, 'chat', {
        eventId: id,
        eventType: 'message',
        payload: { type: 'event_callback', event_id: id, event: { type: 'message' } },
      });
    }
    // Started after every job exists: the first fetch takes all four in one batch.
    await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
    // The moment the poison job has failed once (its retry is seconds away), the others are done.
    for (let i = 0; i < 300; i++) {
      const res = await t.deps.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-process' AND data->>'webhook_event_id' = 'poison' AND retry_count > 0`,
      );
      if (Number(res.rows[0]!.n) > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const done = await t.deps.db.execute<{ event_id: string; outcome: string }>(
      sql`SELECT event_id, outcome FROM webhook_events WHERE processed_at IS NOT NULL ORDER BY event_id`,
    );
    expect(done.rows).toEqual([
      { event_id: 'EvBatch1', outcome: 'ignored' },
      { event_id: 'EvBatch2', outcome: 'ignored' },
      { event_id: 'EvBatch3', outcome: 'ignored' },
    ]);
  }, 60_000);
});
