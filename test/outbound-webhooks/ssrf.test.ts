/**
 * Safe targets (docs/webhooks.md "Outbound", "Safe targets"): without
 * MUSTER_WEBHOOKS_ALLOW_PRIVATE, URLs naming private, loopback, link-local or otherwise internal
 * addresses, http URLs and URLs with credentials are refused with a plain 422 and nothing is
 * written; the local receiver they name is never contacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
  t = await startTestApp();
  w = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rx?.close();
});

describe('outbound webhooks: refused targets', () => {
  const cases: [string, string][] = [
    ['loopback IPv4', `https://127.0.0.1:${0}/hook`],
    ['localhost', 'https://localhost/hook'],
    ['loopback IPv6', 'https://[::1]/hook'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['hex loopback', 'https://0x7f000001/hook'],
    ['private 10/8', 'https://10.1.2.3/hook'],
    ['private 172.16/12', 'https://172.20.0.1/hook'],
    ['private 192.168/16', 'https://192.168.1.1/hook'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
    ['IPv6 link-local', 'https://[fe80::1]/hook'],
    ['IPv6 unique local', 'https://[fd00::1]/hook'],
    ['unspecified', 'https://0.0.0.0/hook'],
    ['http', 'http://93.184.216.34/hook'],
    ['credentials', 'https://user:pass@93.184.216.34/hook'],
    ['not a URL', 'not a url'],
    ['ftp', 'ftp://93.184.216.34/hook'],
  ];
  it.each(cases)('%s → 422, nothing stored, never contacted', async (_name, raw) => {
    const url = raw.replace(':0/', `:${rx.port}/`);
    const before = await t.deps.database.pool.query('SELECT count(*)::int AS n FROM webhook_endpoints');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/events/${w.events.A.id}/webhooks`,
      headers: bearer(w.users.eventAdmin.mobile),
      payload: { url, event_types: ['scan.created'] },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json())).toEqual(['error']);
    const after = await t.deps.database.pool.query('SELECT count(*)::int AS n FROM webhook_endpoints');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect(rx.connections).toBe(0);
  });

  it('refuses the same on PATCH (a public endpoint cannot be re-pointed inside)', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/events/${w.events.A.id}/webhooks`,
      headers: bearer(w.users.eventAdmin.mobile),
      payload: { url: 'https://93.184.216.34/hook', event_types: ['scan.created'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/events/${w.events.A.id}/webhooks/${created.json().webhook.id}`,
      headers: bearer(w.users.eventAdmin.mobile),
      payload: { url: `https://127.0.0.1:${rx.port}/hook` },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({
      error: 'Webhook URL must not point to a private, loopback or link-local address',
    });
    expect(rx.connections).toBe(0);
  });
});
