/**
 * Delivery efficiency without loss (docs/webhooks.md "How delivery stays cheap"): a burst of
 * messages to one receiver travels over kept-alive connections (fewer connections than messages),
 * each delivery is recorded once with its single successful attempt (outcomes written in batches),
 * and a kept connection that the receiver drops as it is reused is retried once on a new one, so
 * every message still arrives at the first attempt.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startWebhookDispatcher } from '../../src/modules/outbound-webhooks/dispatcher.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { buildWorld, type World } from '../support/world.js';

const PINGS = 40;
let t: TestApp;
let w: World;
let dispatcher: Dispatcher;

beforeAll(async () => {
  t = await startTestApp({
    MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true',
    // A failed attempt would be retried after 60 s: an attempt count above 1 means one failed.
    MUSTER_WEBHOOKS_RETRY_SCHEDULE: '0,60',
    MUSTER_WEBHOOKS_POLL_MS: '50',
  });
  w = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop();
  await t?.close();
});

const api = (method: 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(w.users.eventAdmin.mobile),
    ...(payload ? { payload } : {}),
  });

/** Creates an endpoint at `rx`, queues PINGS pings to it with the dispatcher stopped, then delivers them. */
async function burst(rx: Receiver): Promise<number> {
  const created = await api('POST', `/events/${w.events.A.id}/webhooks`, {
    url: rx.url,
    event_types: ['scan.created'],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().webhook.id as number;
  await dispatcher?.stop();
  for (let i = 0; i < PINGS; i++)
    expect((await api('POST', `/events/${w.events.A.id}/webhooks/${id}/ping`)).statusCode).toBe(202);
  dispatcher = startWebhookDispatcher(t.deps);
  await rx.until((r) => r.length >= PINGS, `${PINGS} pings`);
  // Every outcome recorded: the deliveries succeeded, each with exactly one attempt row.
  for (let tries = 0; ; tries++) {
    const res = await t.deps.db.execute<{ succeeded: number; attempts: number; rows: number }>(sql`
      SELECT count(*) FILTER (WHERE d.status = 'succeeded')::int AS succeeded, max(d.attempts)::int AS attempts,
             (SELECT count(*)::int FROM webhook_attempts a WHERE a.endpoint_id = ${id} AND a.status_code = 204) AS rows
        FROM webhook_deliveries d WHERE d.endpoint_id = ${id}`);
    const row = res.rows[0]!;
    if (row.succeeded === PINGS || tries > 100) {
      expect(row).toEqual({ succeeded: PINGS, attempts: 1, rows: PINGS });
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return id;
}

describe('outbound webhooks: connections and recording', { timeout: 90_000 }, () => {
  it('sends a burst over kept-alive connections and records each delivery once', async () => {
    const rx = await startReceiver();
    try {
      await burst(rx);
      expect(rx.received).toHaveLength(PINGS);
      expect(new Set(rx.received.map((r) => r.id)).size).toBe(PINGS);
      expect(rx.connections).toBeLessThan(PINGS);
    } finally {
      await rx.close();
    }
  });

  it('retries on a new connection when a kept one is dropped as it is reused, so no attempt fails', async () => {
    // Answers the first request of each connection and drops the connection at its second request
    // without answering: every reuse meets a closed connection (ECONNRESET on a reused socket).
    const ids = new Set<string>();
    const served = new WeakMap<object, number>();
    const server = createServer((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      req.resume();
      req.on('end', () => {
        if (n > 1) return void req.socket.destroy();
        ids.add(String(req.headers['webhook-id']));
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const rx = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      until: async (test: (r: unknown[]) => boolean, what: string) => {
        const deadline = Date.now() + 60_000;
        while (!test([...ids])) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${ids.size})`);
          await new Promise((r) => setTimeout(r, 25));
        }
      },
    } as Receiver;
    try {
      await burst(rx);
      expect(ids.size).toBe(PINGS);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
