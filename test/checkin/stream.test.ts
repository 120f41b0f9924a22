/**
 * GET /events/{e}/scans/stream (Server-Sent Events) over a real listening port: live scans and
 * undos, resuming with Last-Event-ID, context filter, heartbeats, several clients, refusals.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { scanStreamHub } from '../../src/modules/checkin/stream.serve.js';
import { createDeps } from '../../src/server.js';
import { bearer, get, startTestApp, type TestApp } from '../support/app.js';
import { openSse, type SseStream } from '../support/sse.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let base: string;
let A: number;
const P = '/api/v1';
const streams: SseStream[] = [];

beforeAll(async () => {
  t = await startTestApp({ MUSTER_SCAN_STREAM_POLL_MS: '50', MUSTER_SCAN_STREAM_HEARTBEAT_MS: '300' });
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  // Streams are left open: app.close() must end them (preClose) rather than hang.
  await t?.close();
  for (const s of streams) s.close();
});

async function connect(path: string, secret = world.users.ops.mobile, headers: Record<string, string> = {}) {
  const s = await openSse(`${base}${P}${path}`, { ...bearer(secret), ...headers });
  streams.push(s);
  return s;
}

let n = 0;
async function newReg() {
  n += 1;
  return t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId: A,
      email: `stream${n}@scan.test`,
      firstName: `Stream${n}`,
      lastName: 'Live',
      preferredName: null,
      dateOfBirth: '1990-01-01',
      status: 'complete',
    }),
  );
}

async function scan(registrationId: number, context = world.contexts.checkInA) {
  const res = await app.inject({
    method: 'POST',
    url: `${P}/events/${A}/scans`,
    payload: { participant_id: registrationId, scan_context_id: context },
    headers: bearer(world.users.ops.mobile),
  });
  expect(res.statusCode).toBe(200);
  return res.json().scan as { id: number };
}

function undo(registrationId: number) {
  return app.inject({
    method: 'DELETE',
    url: `${P}/events/${A}/scans/${registrationId}`,
    headers: bearer(world.users.ops.mobile),
  });
}

describe('GET /events/{e}/scans/stream', () => {
  it('streams a scan made after connecting, then its undo, in the shape GET /scans uses', async () => {
    const s = await connect(`/events/${A}/scans/stream`);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('cache-control')).toBe('no-cache, no-transform');
    const reg = await newReg();
    const made = await scan(reg.id);
    const first = await s.next();
    expect(first.event).toBe('scan');
    expect(first.id).toMatch(/^\d{28}$/);
    const data = JSON.parse(first.data);
    expect(data).toEqual(made);
    // Byte for byte what the scan response serialises (the feed text is built in SQL by muster_scan).
    expect(first.data).toBe(JSON.stringify(made));
    // The same object GET /scans serves for this scan.
    const listed = (await get(app, `${P}/events/${A}/scans`, world.users.ops.mobile)).json();
    expect(listed.scans.find((x: { id: number }) => x.id === made.id)).toEqual(data);

    const again = await scan(reg.id, world.contexts.lunchA);
    expect(JSON.parse((await s.next()).data).id).toBe(again.id);
    expect((await undo(reg.id)).json().deleted_scans).toBe(2);
    const u1 = await s.next();
    const u2 = await s.next();
    expect([u1.event, u2.event]).toEqual(['scan_undone', 'scan_undone']);
    expect([JSON.parse(u1.data), JSON.parse(u2.data)]).toEqual([made, again]);
    const ids = [first.id!, u1.id!, u2.id!];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
  }, 60_000);

  it('deleting a scan context reports its scans as scan_undone', async () => {
    const s = await connect(`/events/${A}/scans/stream`);
    const created = await app.inject({
      method: 'POST',
      url: `${P}/events/${A}/scan_contexts`,
      payload: { name: 'Stream pop-up' },
      headers: bearer(world.users.eventAdmin.mobile),
    });
    expect(created.statusCode).toBe(201);
    const contextId = created.json().scan_context.id as number;
    const reg = await newReg();
    const made = await scan(reg.id, contextId);
    expect(JSON.parse((await s.next()).data)).toEqual(made);
    const del = await app.inject({
      method: 'DELETE',
      url: `${P}/events/${A}/scan_contexts/${contextId}`,
      headers: bearer(world.users.eventAdmin.mobile),
    });
    expect(del.json()).toEqual({ success: true, deleted_scans: 1 });
    const gone = await s.next();
    expect([gone.event, JSON.parse(gone.data)]).toEqual(['scan_undone', made]);
  }, 60_000);

  it('Last-Event-ID replays exactly the missed messages, then continues live', async () => {
    const s1 = await connect(`/events/${A}/scans/stream`);
    const reg = await newReg();
    const seen = await scan(reg.id);
    const m1 = await s1.next();
    expect(JSON.parse(m1.data).id).toBe(seen.id);
    s1.close();
    const missed1 = await scan(reg.id, world.contexts.lunchA);
    const missed2 = await scan(reg.id);
    await undo(reg.id);

    const s2 = await connect(`/events/${A}/scans/stream`, world.users.ops.mobile, {
      'last-event-id': m1.id!,
    });
    const replay = [await s2.next(), await s2.next(), await s2.next(), await s2.next(), await s2.next()];
    expect(replay.map((m) => [m.event, JSON.parse(m.data).id])).toEqual([
      ['scan', missed1.id],
      ['scan', missed2.id],
      ['scan_undone', seen.id],
      ['scan_undone', missed1.id],
      ['scan_undone', missed2.id],
    ]);
    const live = await scan(reg.id);
    const m = await s2.next();
    expect([m.event, JSON.parse(m.data).id]).toEqual(['scan', live.id]);
    const ids = [m1.id!, ...replay.map((r) => r.id!), m.id!];
    expect([...ids].sort()).toEqual(ids);

    // Resuming from the last id received: nothing is sent again.
    const s3 = await connect(`/events/${A}/scans/stream`, world.users.ops.mobile, { 'last-event-id': m.id! });
    const next = await scan(reg.id, world.contexts.lunchA);
    expect(JSON.parse((await s3.next()).data).id).toBe(next.id);
  }, 60_000);

  it('several clients share the feed; scan_context_id filters; heartbeats keep the line open', async () => {
    const all = await connect(`/events/${A}/scans/stream`, world.users.readOnly.mobile);
    const lunch = await connect(`/events/${A}/scans/stream?scan_context_id=${world.contexts.lunchA}`);
    const reg = await newReg();
    const a = await scan(reg.id);
    const b = await scan(reg.id, world.contexts.lunchA);
    expect(JSON.parse((await all.next()).data).id).toBe(a.id);
    expect(JSON.parse((await all.next()).data).id).toBe(b.id);
    expect(JSON.parse((await lunch.next()).data).id).toBe(b.id);
    let beat = await all.next({ comments: true });
    while (beat.data !== 'heartbeat') beat = await all.next({ comments: true });
    expect(beat.event).toBe('comment');
    expect(lunch.pending()).toEqual([]);
  }, 60_000);

  it.runIf(process.env.DATABASE_URL)(
    'PostgreSQL: a scan made through another process appears; a late commit is not skipped',
    async () => {
      const s = await connect(`/events/${A}/scans/stream`);
      const deps2 = await createDeps(t.deps.config);
      const app2 = await buildApp(deps2);
      try {
        const reg = await newReg();
        const other = await app2.inject({
          method: 'POST',
          url: `${P}/events/${A}/scans`,
          payload: { participant_id: reg.id, scan_context_id: world.contexts.checkInA },
          headers: bearer(world.users.ops.mobile),
        });
        expect(JSON.parse((await s.next()).data)).toEqual(other.json().scan);

        // A transaction that started first but commits last: held back, then delivered first.
        const slow = await t.deps.database.pool.connect();
        try {
          await slow.query('BEGIN');
          await slow.query(
            `INSERT INTO scan_feed (event_id, kind, scan_id, scan_context_id, payload)
             VALUES ($1, 'scan', 0, $2, '{"id":0,"late":true}')`,
            [A, world.contexts.checkInA],
          );
          const fast = await scan(reg.id);
          await new Promise((r) => setTimeout(r, 300));
          expect(s.pending()).toEqual([]);
          await slow.query('COMMIT');
          expect(JSON.parse((await s.next()).data)).toEqual({ id: 0, late: true });
          expect(JSON.parse((await s.next()).data).id).toBe(fast.id);
        } finally {
          slow.release();
        }
      } finally {
        await app2.close();
        await deps2.close();
      }
    },
    60_000,
  );

  it('a client that disconnects is dropped from the shared poller', async () => {
    const event = world.events.B.id;
    const hub = scanStreamHub(t.deps)!;
    expect(hub.clientCount(event)).toBe(0);
    const one = await connect(`/events/${event}/scans/stream`, world.users.seriesOwner.mobile);
    const two = await connect(`/events/${event}/scans/stream`, world.users.seriesOwner.mobile);
    expect(hub.clientCount(event)).toBe(2);
    one.close();
    two.close();
    for (let i = 0; i < 200 && hub.clientCount(event) > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(hub.clientCount(event)).toBe(0);
  }, 60_000);

  it('is refused like GET /scans: 401, 403 for keys and other events, 404, 422', async () => {
    const url = `${P}/events/${A}/scans/stream`;
    const cases: [string | undefined, string, number, string][] = [
      [undefined, url, 401, 'Unauthorized'],
      [
        world.secrets.eventKeyA,
        url,
        403,
        'API keys cannot access this endpoint; it requires a user credential',
      ],
      [
        world.users.ops.mobile,
        `${P}/events/${world.events.C.id}/scans/stream`,
        403,
        'You do not have access to this event',
      ],
      [world.users.ops.mobile, `${P}/events/99999999/scans/stream`, 404, 'Event not found'],
      [
        world.users.ops.mobile,
        `${url}?scan_context_id=${world.contexts.checkInC}`,
        422,
        'scan_context_id does not belong to this event',
      ],
    ];
    for (const [secret, path, status, error] of cases) {
      const res = await fetch(`${base}${path}`, { headers: bearer(secret) });
      expect(res.status, path).toBe(status);
      expect(await res.json()).toEqual({ error });
    }
    const bad = await fetch(`${base}${url}`, {
      headers: { ...bearer(world.users.ops.mobile), 'last-event-id': 'yesterday' },
    });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ error: 'Last-Event-ID is not an id of this stream' });
  }, 60_000);
});
