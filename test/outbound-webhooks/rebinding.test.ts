/**
 * Safe targets by name (docs/webhooks.md "Outbound", "Safe targets"), against a real local DNS
 * server (test/support/dns-fake.ts, MUSTER_WEBHOOKS_DNS_SERVERS): a name resolving to a private,
 * loopback or link-local address (or to a public and a private one) is refused at creation with a
 * plain 422, nothing stored, never contacted; a name public at creation and re-pointed at loopback
 * before delivery (DNS rebinding) fails the attempt with the refusal in the delivery log, one DNS
 * lookup per attempt, and the local receiver it now names gets no connection; and the attempt
 * connects to the address the check saw, not to a second lookup of the name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startWebhookDispatcher } from '../../src/modules/outbound-webhooks/dispatcher.js';
import { post } from '../../src/modules/outbound-webhooks/send.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type FakeDns, startFakeDns } from '../support/dns-fake.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
let rx: Receiver;
let dns: FakeDns;
let dispatcher: Dispatcher;
const PUBLIC = '93.184.216.34';

const create = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/events/${w.events.A.id}/webhooks`,
    headers: bearer(w.users.eventAdmin.mobile),
    payload: { url, event_types: ['scan.created'] },
  });
const endpointCount = async () =>
  (await t.deps.database.pool.query('SELECT count(*)::int AS n FROM webhook_endpoints')).rows[0].n as number;

beforeAll(async () => {
  rx = await startReceiver();
  dns = await startFakeDns();
  t = await startTestApp({
    MUSTER_WEBHOOKS_DNS_SERVERS: `127.0.0.1:${dns.port}`,
    MUSTER_WEBHOOKS_RETRY_SCHEDULE: '0,0.2',
    MUSTER_WEBHOOKS_POLL_MS: '50',
    MUSTER_WEBHOOKS_TIMEOUT_MS: '2000',
  });
  w = await buildWorld(t.deps);
  dispatcher = startWebhookDispatcher(t.deps);
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop();
  await t?.close();
  await rx?.close();
  await dns?.close();
});

describe('outbound webhooks: names resolving inside', () => {
  const cases: [string, string[]][] = [
    ['loopback', ['127.0.0.1']],
    ['IPv6 loopback', ['::1']],
    ['private 10/8', ['10.0.0.5']],
    ['private 192.168/16', ['192.168.0.10']],
    ['link-local (cloud metadata)', ['169.254.169.254']],
    ['IPv6 link-local', ['fe80::1']],
    ['one public and one loopback address', [PUBLIC, '127.0.0.1']],
  ];
  it.each(cases)(
    'a name resolving to %s → 422 at creation, nothing stored, never contacted',
    async (_n, addrs) => {
      const host = `inside-${addrs.join('-').replace(/[.:]/g, 'x')}.test`;
      dns.records.set(host, addrs);
      const before = await endpointCount();
      const res = await create(`https://${host}:${rx.port}/hook`);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        error: 'Webhook URL must not point to a private, loopback or link-local address',
      });
      expect(await endpointCount()).toBe(before);
      expect(dns.queries.get(`A ${host}`)).toBeGreaterThanOrEqual(1); // the name was really resolved
      expect(rx.connections).toBe(0);
    },
  );

  it('a name that does not resolve → 422', async () => {
    const res = await create(`https://nowhere.test:${rx.port}/hook`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error: 'Webhook URL host does not resolve' });
  });
});

describe('outbound webhooks: DNS rebinding', () => {
  it('public at creation, loopback at delivery → the attempt is refused and the receiver never contacted', async () => {
    const host = 'rebind.test';
    dns.records.set(host, [PUBLIC]);
    const created = await create(`https://${host}:${rx.port}/hook`);
    expect(created.statusCode, created.body).toBe(201);
    const hook = created.json().webhook as { id: number };
    const lookupsAtCreation = dns.queries.get(`A ${host}`) ?? 0;
    expect(lookupsAtCreation).toBeGreaterThanOrEqual(1);

    dns.records.set(host, ['127.0.0.1']); // the attacker re-points the name
    const base = `/api/v1/events/${w.events.A.id}/webhooks/${hook.id}`;
    const auth = bearer(w.users.eventAdmin.mobile);
    const ping = await t.app.inject({ method: 'POST', url: `${base}/ping`, headers: auth });
    expect(ping.statusCode, ping.body).toBe(202);
    const deliveryId = ping.json().delivery.id as number;

    type Delivery = {
      id: number;
      status: string;
      attempts: number;
      log: { attempt: number; status_code: number | null; error: string | null }[];
    };
    let delivery: Delivery | undefined;
    for (let i = 0; i < 200 && delivery?.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const log = await t.app.inject({ method: 'GET', url: `${base}/deliveries`, headers: auth });
      delivery = (log.json().deliveries as Delivery[]).find((d) => d.id === deliveryId);
    }
    // Both attempts of the (shortened) schedule were refused before connecting.
    expect(delivery).toMatchObject({ status: 'failed', attempts: 2 });
    for (const a of delivery!.log) {
      expect(a.status_code).toBeNull();
      expect(a.error).toBe('Webhook URL must not point to a private, loopback or link-local address');
    }
    // Resolved again for each attempt (no cached answer from the creation).
    expect(dns.queries.get(`A ${host}`)).toBe(lookupsAtCreation + 2);
    expect(rx.connections).toBe(0);
    expect(rx.received).toEqual([]);
  }, 30_000);

  it('an attempt connects to the checked address: the name goes only into Host, never to a second lookup', async () => {
    // `checked.test` is unknown to the system resolver: a second lookup could not reach anything.
    const before = rx.received.length;
    const result = await post(
      new URL(`http://checked.test:${rx.port}/hook`),
      { address: '127.0.0.1', family: 4 },
      { 'webhook-id': 'msg_direct' },
      '{}',
      2000,
    );
    expect(result).toMatchObject({ status: 204, error: null });
    const got = rx.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers.host).toBe(`checked.test:${rx.port}`);
    expect(dns.queries.get('A checked.test')).toBeUndefined();
  });
});
