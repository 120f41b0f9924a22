/**
 * Outbound webhooks end to end against a real local receiver that verifies every delivery with the
 * `standardwebhooks` package (docs/webhooks.md "Outbound"): each event type arrives once with a
 * valid signature and ids only; a receiver that fails twice then succeeds gets the same
 * `webhook-id` three times; during a rotation both secrets verify; a tampered body fails. The retry
 * schedule is shortened with MUSTER_WEBHOOKS_RETRY_SCHEDULE (documented for tests and operators).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startWebhookDispatcher } from '../../src/modules/outbound-webhooks/dispatcher.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/modules/outbound-webhooks/event-types.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let w: World;
let rx: Receiver;
let dispatcher: Dispatcher;
let secret: string;
let hookId: number;

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(w.users.eventAdmin.mobile),
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  rx = await startReceiver();
  t = await startTestApp({
    MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true',
    MUSTER_WEBHOOKS_RETRY_SCHEDULE: '0,0.2,0.2,0.2,0.2,0.2,0.2,0.2',
    MUSTER_WEBHOOKS_POLL_MS: '50',
  });
  w = await buildWorld(t.deps);
  dispatcher = startWebhookDispatcher(t.deps);
  const res = await api('POST', `/events/${w.events.A.id}/webhooks`, {
    url: rx.url,
    description: 'Warehouse',
    event_types: WEBHOOK_EVENT_TYPES.filter((x) => x !== 'ping'),
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json().webhook;
  secret = body.secret;
  hookId = body.id;
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop();
  await t?.close();
  await rx?.close();
});

const ofType = (type: string) => rx.received.filter((r) => r.json.type === type);
const NUMERIC_OR_ENUM =
  /^(entry|exit|admitted|warning|refused|invited|in_progress|awaiting_guardian|complete|withdrawn|rejected|completed|failed|waiver|freedom_waiver|code_of_conduct|\d{4}-\d\d-\d\dT[\d:.]+Z)$/;

describe('outbound webhooks: delivery', () => {
  it('answers the secret once, as whsec_, and stores it only sealed', async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const list = (await api('GET', `/events/${w.events.A.id}/webhooks`)).json();
    expect(list.webhooks).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(secret);
    const stored = await t.deps.database.pool.query('SELECT * FROM webhook_endpoints');
    expect(JSON.stringify(stored.rows)).not.toContain(secret.slice(6));
  });

  it('delivers every event type once, signed, with ids only', async () => {
    const A = w.events.A.id;
    const scan = await api('POST', `/events/${A}/scans`, {
      participant_id: w.regs.adultA.id,
      scan_context_id: w.contexts.lunchA,
    });
    expect(scan.statusCode, scan.body).toBeLessThan(300);
    const undo = await api(
      'DELETE',
      `/events/${A}/scans/${w.regs.adultA.id}?scan_context_id=${w.contexts.lunchA}`,
    );
    expect(undo.statusCode, undo.body).toBe(200);
    // The other writes, each through its table (the triggers are the one place that emits).
    const db = t.deps.db;
    await db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE registrations SET status = 'withdrawn' WHERE id = ${w.regs.adultA.id}`);
      await tx.execute(sql`UPDATE guardians SET status = 'completed' WHERE id = ${w.guardianA}`);
      await tx.execute(sql`INSERT INTO consents (registration_id, consent_type, status) VALUES (${w.regs.minorA.id}, 'freedom_waiver', 'signed')
                           ON CONFLICT (registration_id, consent_type) DO UPDATE SET status = 'signed'`);
      await tx.execute(
        sql`UPDATE travel_legs SET travel_picked_up_at = now() WHERE id = ${w.legs.inboundA1} AND travel_picked_up_at IS NULL`,
      );
      await tx.execute(
        sql`INSERT INTO announcements (event_id, subject, body, audience, status, created_by) VALUES (${A}, 's', 'b', 'staff', 'sent', 'x')`,
      );
      const blast = await tx.execute<{ id: number }>(
        sql`INSERT INTO chat_blasts (event_id, message, sent_by) VALUES (${A}, 'm', 'x') RETURNING id`,
      );
      await tx.execute(sql`UPDATE chat_blasts SET status = 'completed' WHERE id = ${blast.rows[0]!.id}`);
      const inv = await tx.execute<{
        id: number;
      }>(sql`INSERT INTO invitations (event_id, email, token_digest, expires_at)
          VALUES (${A}, 'inv@hook.test', 'h-hook', now() + interval '1 day') RETURNING id`);
      const reg = await addRegistration(tx, {
        eventId: A,
        email: 'new@hook.test',
        firstName: 'Nia',
        lastName: 'New',
        preferredName: null,
        dateOfBirth: null,
        status: 'in_progress',
      });
      await tx.execute(
        sql`UPDATE invitations SET status = 'accepted', registration_id = ${reg.id} WHERE id = ${inv.rows[0]!.id}`,
      );
    });
    const staffEdit = await api('PATCH', `/events/${A}/participants/${w.regs.minorA.id}`, {
      personal: { tshirt_size: 'XL' },
    });
    expect(staffEdit.statusCode, staffEdit.body).toBe(200);
    const wanted = WEBHOOK_EVENT_TYPES.filter((x) => x !== 'ping');
    await rx.until((all) => wanted.every((type) => all.some((r) => r.json.type === type)), 'every type');
    for (const type of wanted) {
      const got = ofType(type);
      expect(got.length, type).toBeGreaterThanOrEqual(1);
      for (const r of got) {
        expect(r.id).toMatch(/^msg_[0-9a-f]{32}$/);
        expect(() => rx.verify(r, secret)).not.toThrow();
        expect(r.json.data.event_id).toBe(A);
        for (const [key, value] of Object.entries(r.json.data)) {
          if (value === null || typeof value === 'number' || typeof value === 'boolean') continue;
          if (Array.isArray(value)) continue;
          expect(String(value), `${type}.${key}`).toMatch(NUMERIC_OR_ENUM);
        }
        expect(r.body).not.toMatch(/@|Nia|New/);
      }
    }
    // Once each: no webhook-id came twice (every answer was 2xx).
    const ids = rx.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ofType('scan.created')[0]!.json.data).toMatchObject({
      participant_event_id: w.regs.adultA.id,
      scan_context_id: w.contexts.lunchA,
      type: 'entry',
      forced: false,
    });
    expect(ofType('registration.status_changed')[0]!.json.data).toMatchObject({
      from: w.regs.adultA.status,
      to: 'withdrawn',
    });
  }, 120_000);

  it('gives a receiver that fails twice the same webhook-id three times, and logs each attempt', async () => {
    rx.failFirst = 2;
    const before = rx.received.length;
    const ping = await api('POST', `/events/${w.events.A.id}/webhooks/${hookId}/ping`);
    expect(ping.statusCode, ping.body).toBe(202);
    const msg = ping.json().delivery.webhook_id as string;
    await rx.until((all) => all.filter((r) => r.id === msg).length >= 3, 'three attempts');
    const got = rx.received.slice(before).filter((r) => r.id === msg);
    expect(got).toHaveLength(3);
    for (const r of got) expect(() => rx.verify(r, secret)).not.toThrow();
    rx.failFirst = 0;
    const deliveryId = ping.json().delivery.id;
    let delivery:
      | { status: string; attempts: number; log: { status_code: number; attempt: number }[] }
      | undefined;
    for (let i = 0; i < 100; i++) {
      const log = (await api('GET', `/events/${w.events.A.id}/webhooks/${hookId}/deliveries`)).json();
      delivery = log.deliveries.find((d: { id: number }) => d.id === deliveryId);
      if (delivery?.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(delivery!.log.map((a) => [a.attempt, a.status_code])).toEqual([
      [3, 204],
      [2, 500],
      [1, 500],
    ]);
    // Redeliver: the same webhook-id once more.
    const again = await api(
      'POST',
      `/events/${w.events.A.id}/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`,
    );
    expect(again.statusCode, again.body).toBe(202);
    await rx.until((all) => all.filter((r) => r.id === msg).length >= 4, 'the redelivery');
  }, 60_000);

  it('signs with both secrets during a rotation; a tampered body fails', async () => {
    const rotated = await api('POST', `/events/${w.events.A.id}/webhooks/${hookId}/rotate_secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().webhook.secret as string;
    expect(fresh).not.toBe(secret);
    expect(rotated.json().webhook.previous_secret_expires_at).toEqual(expect.any(String));
    const ping = await api('POST', `/events/${w.events.A.id}/webhooks/${hookId}/ping`);
    const msg = ping.json().delivery.webhook_id as string;
    await rx.until((all) => all.some((r) => r.id === msg), 'the ping');
    const r = rx.received.find((x) => x.id === msg)!;
    expect(r.signature.split(' ')).toHaveLength(2);
    expect(() => rx.verify(r, fresh)).not.toThrow();
    expect(() => rx.verify(r, secret)).not.toThrow();
    expect(() => rx.verify({ ...r, body: r.body.replace('"ping"', '"pong"') }, fresh)).toThrow();
    expect(() => rx.verify(r, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow();
  }, 60_000);
});
