/**
 * An endpoint that keeps failing is switched off (docs/webhooks.md "Outbound", "Delivery"; issue 29
 * item 3): with MUSTER_WEBHOOKS_DISABLE_AFTER_HOURS=0 (the 5 days shortened) a receiver answering
 * 500 gets one attempt, then the endpoint is off with its reason, the switch-off is audited, its
 * creator is emailed (the email queued with a link to the webhooks page), and the delivery waits
 * (no further attempt) until the endpoint is switched on again, when it arrives with the same
 * `webhook-id`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startWebhookDispatcher } from '../../src/modules/outbound-webhooks/dispatcher.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
let rx: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  rx = await startReceiver();
  t = await startTestApp({
    MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true',
    MUSTER_WEBHOOKS_RETRY_SCHEDULE: '0,2,2,2',
    MUSTER_WEBHOOKS_POLL_MS: '50',
    MUSTER_WEBHOOKS_DISABLE_AFTER_HOURS: '0',
  });
  w = await buildWorld(t.deps);
  dispatcher = startWebhookDispatcher(t.deps);
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop();
  await t?.close();
  await rx?.close();
});

describe('outbound webhooks: switched off after failing', () => {
  it('switches the endpoint off, audits, emails its creator; the delivery waits and resumes when switched on', async () => {
    const base = `/api/v1/events/${w.events.A.id}/webhooks`;
    const auth = bearer(w.users.eventAdmin.mobile);
    const created = await t.app.inject({
      method: 'POST',
      url: base,
      headers: auth,
      payload: { url: rx.url, event_types: ['scan.created'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().webhook.id as number;
    rx.status = 500;
    const ping = await t.app.inject({ method: 'POST', url: `${base}/${id}/ping`, headers: auth });
    expect(ping.statusCode, ping.body).toBe(202);
    const msg = ping.json().delivery.webhook_id as string;

    let hook: { enabled: boolean; disabled_reason: string | null } = { enabled: true, disabled_reason: null };
    for (let i = 0; i < 200 && hook.enabled; i++) {
      await new Promise((r) => setTimeout(r, 50));
      hook = (await t.app.inject({ method: 'GET', url: `${base}/${id}`, headers: auth })).json().webhook;
    }
    expect(hook).toMatchObject({ enabled: false, disabled_reason: 'Every delivery failed for 5 days' });
    const pool = t.deps.database.pool;
    const audit = await pool.query(
      "SELECT actor_user_id, target_id, metadata FROM audit_log WHERE action = 'webhooks.disabled'",
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].actor_user_id).toBeNull();
    expect(audit.rows[0].metadata).toMatchObject({ webhook_id: id, host: `127.0.0.1:${rx.port}` });
    const mail = await pool.query("SELECT to_email FROM email_log WHERE template = 'webhook_disabled'");
    expect(mail.rows.map((r) => r.to_email)).toEqual([w.users.eventAdmin.email]);

    // Off: the delivery waits (still pending, no attempt past the 2 s retry interval).
    expect(rx.received.filter((r) => r.id === msg)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 3000));
    expect(rx.received.filter((r) => r.id === msg)).toHaveLength(1);
    const log = (
      await t.app.inject({ method: 'GET', url: `${base}/${id}/deliveries`, headers: auth })
    ).json();
    expect(log.deliveries[0]).toMatchObject({ webhook_id: msg, status: 'pending', attempts: 1 });

    rx.status = 204;
    const on = await t.app.inject({
      method: 'PATCH',
      url: `${base}/${id}`,
      headers: auth,
      payload: { enabled: true },
    });
    expect(on.json().webhook).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await rx.until((all) => all.filter((r) => r.id === msg).length === 2, 'the resumed delivery');
  }, 60_000);
});
