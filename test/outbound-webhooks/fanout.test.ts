/**
 * One outbox row per change, fanned out by the dispatcher (docs/webhooks.md "Delivery"; migration
 * 0028): a scan writes one `webhook_messages` row listing the endpoints subscribed at that moment
 * (of the event and of its series), and no delivery; the delivery log is empty until the fan-out.
 * The fan-out (claim.ts `claimDue`) writes one delivery per listed endpoint still enabled, claims
 * only as many as it has slots, and fans each message out once, also with several claims at once.
 * The dispatcher is not started: the test calls `claimDue` itself and attempts nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDue } from '../../src/modules/outbound-webhooks/claim.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
const hooks: number[] = []; // event A scan.created, event A scan.created, series S1 scan.created

beforeAll(async () => {
  t = await startTestApp({ MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true' });
  w = await buildWorld(t.deps);
  const make = async (scope: string, types: string[], headers = bearer(w.users.eventAdmin.mobile)) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${scope}/webhooks`,
      headers,
      payload: { url: 'http://127.0.0.1:9/hook', event_types: types },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().webhook.id as number;
  };
  hooks.push(await make(`events/${w.events.A.id}`, ['scan.created']));
  hooks.push(await make(`events/${w.events.A.id}`, ['scan.created']));
  hooks.push(await make(`series/${w.series.S1.id}`, ['scan.created'], bearer(w.users.seriesOwner.mobile)));
  await make(`events/${w.events.A.id}`, ['scan.deleted']); // not subscribed to scans' creation
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.deps.database.pool.query(text, params)).rows as T[];
const log = async (id: number) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/v1/events/${w.events.A.id}/webhooks/${id}/deliveries`,
      headers: bearer(w.users.eventAdmin.mobile),
    })
  ).json().deliveries as { status: string; attempts: number }[];

describe('outbound webhooks: one outbox row per change, fanned out by the worker', () => {
  it('writes one message with the subscribed endpoints and no delivery; the fan-out writes them once', async () => {
    const scan = await t.app.inject({
      method: 'POST',
      url: `/api/v1/events/${w.events.A.id}/scans`,
      headers: bearer(w.users.eventAdmin.mobile),
      payload: { participant_id: w.regs.adultA.id, scan_context_id: w.contexts.lunchA },
    });
    expect(scan.statusCode, scan.body).toBe(200);
    const msgs = await q<{ id: number; endpoint_ids: number[]; awaiting_fanout: boolean }>(
      "SELECT id::int, endpoint_ids, awaiting_fanout FROM webhook_messages WHERE type = 'scan.created'",
    );
    expect(msgs).toEqual([{ id: expect.any(Number), endpoint_ids: hooks, awaiting_fanout: true }]);
    expect(await q('SELECT * FROM webhook_deliveries')).toEqual([]);
    expect(await log(hooks[0]!)).toEqual([]);

    // Switched off before the fan-out: no delivery for it. One slot: one claimed, one left due.
    await q('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [hooks[1]]);
    const first = await claimDue(t.deps, 1);
    expect(first.map((c) => [c.endpoint_id, c.attempts])).toEqual([[hooks[0], 1]]);
    expect(await q('SELECT awaiting_fanout FROM webhook_messages WHERE id = $1', [msgs[0]!.id])).toEqual([
      { awaiting_fanout: false },
    ]);
    expect(await log(hooks[0]!)).toMatchObject([{ status: 'pending', attempts: 1 }]);
    expect(await log(hooks[1]!)).toEqual([]);
    const second = await claimDue(t.deps, 5);
    expect(second.map((c) => [c.endpoint_id, c.attempts, c.msg_id])).toEqual([
      [hooks[2], 1, first[0]!.msg_id],
    ]);
    expect(await claimDue(t.deps, 5)).toEqual([]);
    await q('UPDATE webhook_endpoints SET enabled = true WHERE id = $1', [hooks[1]]);
  });

  it('fans every message out exactly once when several claims run at once', async () => {
    await q(
      `SELECT muster_webhook_emit($1::int, 'scan.created', jsonb_build_object('scan_id', i))
         FROM generate_series(1, 120) i`,
      [w.events.A.id],
    );
    const claimed: number[] = [];
    for (let round = 0; round < 50; round++) {
      const batches = await Promise.all([1, 2, 3, 4].map(() => claimDue(t.deps, 25)));
      const ids = batches.flat().map((c) => c.delivery_id);
      if (ids.length === 0) break;
      claimed.push(...ids);
    }
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed).toHaveLength(360);
    expect(await q('SELECT count(*)::int AS n FROM webhook_messages WHERE awaiting_fanout')).toEqual([
      { n: 0 },
    ]);
    expect(
      await q(`SELECT count(*)::int AS n, count(DISTINCT (d.endpoint_id, d.message_id))::int AS pairs
                 FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
                WHERE m.body LIKE '%"scan_id"%' AND m.id > (SELECT min(id) FROM webhook_messages)`),
    ).toEqual([{ n: 360, pairs: 360 }]);
  });
});
