/**
 * Deliveries give way to the API (docs/webhooks.md "Giving way";
 * src/modules/outbound-webhooks/give-way.ts): the judgement itself with a scripted load and clock,
 * then the dispatcher against a real receiver with a load the test switches between busy and
 * idle: nothing is sent while busy, everything once idle, and a wait ends after
 * MUSTER_WEBHOOKS_MAX_DEFER_MS even when the process stays busy.
 */
import type { EventLoopUtilization } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startWebhookDispatcher } from '../../src/modules/outbound-webhooks/dispatcher.js';
import {
  createGiveWay,
  type LoadSources,
  processLoad,
  WINDOW_MS,
} from '../../src/modules/outbound-webhooks/give-way.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { buildWorld, type World } from '../support/world.js';

/** A load whose event loop, at each read, has been busy or idle for 1 s, with `requests` in progress. */
function scripted(state: { busy: boolean; requests?: number; sessions?: number }): LoadSources {
  let idle = 0;
  let active = 0;
  return {
    utilization(): EventLoopUtilization {
      if (state.busy) active += 1000;
      else idle += 1000;
      return { idle, active, utilization: active / (idle + active) };
    },
    requests: () => state.requests ?? 0,
    sessions: async () => state.sessions ?? 0,
  };
}

const limits = (maxDeferMs: number) => ({ maxDeferMs, busyRequests: 8, busySessions: 10 });

describe('give way: the judgement', () => {
  it('waits while busy, ends a wait after the longest deferral with one round, and never waits at 0', async () => {
    const state = { busy: true };
    const g = createGiveWay(limits(1000), scripted(state), 0);
    expect(await g.shouldWait(WINDOW_MS)).toBe(true);
    expect(await g.shouldWait(2 * WINDOW_MS)).toBe(true);
    expect(await g.shouldWait(WINDOW_MS + 1000)).toBe(false); // the wait is over: one round
    expect(await g.shouldWait(WINDOW_MS + 1000 + WINDOW_MS)).toBe(true); // and a new wait
    state.busy = false;
    expect(await g.shouldWait(5000)).toBe(false);
    const never = createGiveWay(limits(0), scripted({ busy: true }), 0);
    expect(await never.shouldWait(WINDOW_MS)).toBe(false);
  });

  it('judges over a window of at least WINDOW_MS and reuses the judgement in between', async () => {
    const state = { busy: false };
    const g = createGiveWay(limits(10_000), scripted(state), 0);
    expect(await g.shouldWait(0)).toBe(false); // the first look judges at once
    state.busy = true;
    expect(await g.shouldWait(WINDOW_MS - 1)).toBe(false); // too soon after the last look
    expect(await g.shouldWait(WINDOW_MS)).toBe(true);
  });

  it('waits while enough requests (8 here) or database sessions (10) are at work, whatever the loop', async () => {
    const state = { busy: false, requests: 7, sessions: 9 };
    const g = createGiveWay(limits(10_000), scripted(state), 0);
    expect(await g.shouldWait(0)).toBe(false);
    state.requests = 8;
    expect(await g.shouldWait(1)).toBe(true); // no new window needed: the counts are read at every look
    state.requests = 0;
    expect(await g.shouldWait(2)).toBe(false);
    state.sessions = 10;
    expect(await g.shouldWait(3)).toBe(true);
    state.sessions = 0;
    expect(await g.shouldWait(4)).toBe(false);
  });

  it('counts the database sessions at work other than its own (pg_stat_activity)', async () => {
    const load = processLoad(t.deps.db);
    // PGlite serves one session (a pool of one): there is never another one at work.
    if (t.deps.database.kind === 'embedded') return void expect(await load.sessions()).toBe(0);
    const held = await Promise.all([t.deps.database.pool.connect(), t.deps.database.pool.connect()]);
    try {
      for (const c of held) await c.query('BEGIN');
      expect(await load.sessions()).toBeGreaterThanOrEqual(2);
    } finally {
      for (const c of held) {
        await c.query('ROLLBACK');
        c.release();
      }
    }
  });
});

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await startTestApp({
    MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true',
    MUSTER_WEBHOOKS_POLL_MS: '50',
    MUSTER_WEBHOOKS_MAX_DEFER_MS: '600000',
  });
  w = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** An endpoint at `rx` for event A of `world`, made by its event admin, with `n` pings queued; returns its id. */
async function queuedPings(app: TestApp, world: World, rx: Receiver, n: number): Promise<number> {
  const api = (url: string, payload?: object) =>
    app.app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}${url}`,
      headers: bearer(world.users.eventAdmin.mobile),
      ...(payload ? { payload } : {}),
    });
  const created = await api('/webhooks', { url: rx.url, event_types: ['scan.created'] });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().webhook.id as number;
  for (let i = 0; i < n; i++) expect((await api(`/webhooks/${id}/ping`)).statusCode).toBe(202);
  return id;
}

const pending = async (endpointId: number) =>
  (
    await t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${endpointId} AND status = 'pending' AND attempts = 0`,
    )
  ).rows[0]!.n;

describe('give way: the dispatcher', { timeout: 90_000 }, () => {
  it('sends nothing while the loop is saturated and everything once it has room', async () => {
    const rx = await startReceiver();
    const state = { busy: true };
    let dispatcher: Dispatcher | undefined;
    try {
      const id = await queuedPings(t, w, rx, 5);
      dispatcher = startWebhookDispatcher(t.deps, { load: scripted(state) });
      await new Promise((r) => setTimeout(r, 1500)); // many looks, every one busy
      expect(rx.received).toHaveLength(0);
      expect(await pending(id)).toBe(5); // not even claimed
      state.busy = false;
      await rx.until((r) => r.length === 5, '5 pings');
    } finally {
      await dispatcher?.stop();
      await rx.close();
    }
  });

  it('ends a wait after MUSTER_WEBHOOKS_MAX_DEFER_MS even while the loop stays saturated', async () => {
    const short = await startTestApp({
      MUSTER_WEBHOOKS_ALLOW_PRIVATE: 'true',
      MUSTER_WEBHOOKS_POLL_MS: '50',
      MUSTER_WEBHOOKS_MAX_DEFER_MS: '300',
    });
    const rx = await startReceiver();
    let dispatcher: Dispatcher | undefined;
    try {
      await queuedPings(short, await buildWorld(short.deps), rx, 3);
      dispatcher = startWebhookDispatcher(short.deps, { load: scripted({ busy: true }) });
      await rx.until((r) => r.length === 3, '3 pings despite the saturated loop');
    } finally {
      await dispatcher?.stop();
      await rx.close();
      await short.close();
    }
  }, 120_000);
});
