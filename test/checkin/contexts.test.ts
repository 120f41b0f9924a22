/** Scan context management (contract §5): create, update, delete; at least one check-in context. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let A: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const P = '/api/v1';
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, secret?: string) =>
  app.inject({
    method,
    url: `${P}${url}`,
    ...(body === undefined ? {} : { payload: body as object }),
    headers: bearer(secret ?? world.users.eventAdmin.mobile),
  });

async function query<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.deps.database.pool.query<T>(text, params)).rows;
}

describe('scan context management', () => {
  it('creates with defaults (position after the last), trims the name, 409 on a duplicate name', async () => {
    const res = await send('POST', `/events/${A}/scan_contexts`, { name: '  Dinner  ', is_airport: false });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      scan_context: {
        id: expect.any(Number),
        name: 'Dinner',
        checks_in: false,
        is_travel_pickup: false,
        is_airport: false,
        position: 3,
        starts_at: null,
        ends_at: null,
      },
    });
    const dup = await send('POST', `/events/${A}/scan_contexts`, { name: 'dinner' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'A scan context with this name already exists for this event' });
    const list = (await get(app, `${P}/events/${A}/scan_contexts`, world.users.ops.mobile)).json();
    expect(list.scan_contexts.map((c: { name: string }) => c.name)).toEqual([
      'Event check-in',
      'Airport pickup',
      'Lunch',
      'Dinner',
    ]);
  });

  it('validates the body (422)', async () => {
    for (const body of [
      {},
      { name: '   ' },
      { name: 'X', checks_in: 'yes' },
      { name: 'X', is_travel_pickup: true, is_airport: false },
      { name: 'X', starts_at: 'soon' },
      { name: 'X', starts_at: '2026-07-10T10:00:00Z', ends_at: '2026-07-10T09:00:00Z' },
      { name: 'X', position: -1 },
      { name: 'X', colour: 'red' },
    ]) {
      const res = await send('POST', `/events/${A}/scan_contexts`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('updates fields; 404 for a context of another event; keeps one check-in context', async () => {
    const created = (await send('POST', `/events/${A}/scan_contexts`, { name: 'Hotel' })).json().scan_context;
    const res = await send('PATCH', `/events/${A}/scan_contexts/${created.id}`, {
      name: 'Hotel desk',
      is_travel_pickup: true,
      starts_at: '2026-07-10T08:00:00Z',
      ends_at: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scan_context).toMatchObject({
      name: 'Hotel desk',
      is_travel_pickup: true,
      is_airport: true,
      starts_at: '2026-07-10T09:00:00.000000+01:00',
      ends_at: null,
    });
    expect(
      (await send('PATCH', `/events/${A}/scan_contexts/${world.contexts.checkInB}`, { name: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await send('PATCH', `/events/${A}/scan_contexts/abc`, { name: 'x' })).statusCode).toBe(404);
    const off = await send('PATCH', `/events/${A}/scan_contexts/${world.contexts.checkInA}`, {
      checks_in: false,
    });
    expect(off.statusCode).toBe(422);
    expect(off.json()).toEqual({ error: 'An event must keep at least one check-in context' });
    const del = await send('DELETE', `/events/${A}/scan_contexts/${world.contexts.checkInA}`);
    expect(del.statusCode).toBe(422);
    const dupName = await send('PATCH', `/events/${A}/scan_contexts/${created.id}`, { name: 'LUNCH' });
    expect(dupName.statusCode).toBe(409);
  });

  it('deletes a context with its scans and clears hotel_scan_context_id', async () => {
    const created = (
      await send('POST', `/events/${A}/scan_contexts`, { name: 'Hotel check', checks_in: true })
    ).json().scan_context;
    const [uuid] = await query<{ uuid: string }>('SELECT uuid FROM scan_contexts WHERE id = $1', [
      created.id,
    ]);
    await query('UPDATE events SET hotel_scan_context_id = $1 WHERE id = $2', [uuid!.uuid, A]);
    const scan = await send(
      'POST',
      `/events/${A}/scans`,
      { participant_id: world.regs.adultA.id, scan_context_id: created.id },
      world.users.ops.mobile,
    );
    expect(scan.statusCode).toBe(200);
    const del = await send('DELETE', `/events/${A}/scan_contexts/${created.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true, deleted_scans: 1 });
    const [event] = await query<{ h: string | null }>(
      'SELECT hotel_scan_context_id AS h FROM events WHERE id = $1',
      [A],
    );
    expect(event!.h).toBeNull();
    // Now the original check-in context is the last one again.
    expect((await send('DELETE', `/events/${A}/scan_contexts/${world.contexts.checkInA}`)).statusCode).toBe(
      422,
    );
    expect((await send('DELETE', `/events/${A}/scan_contexts/${created.id}`)).statusCode).toBe(404);
  });

  it('only event admins, series roles and global admins manage; denied writes change nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const secret of [
      world.users.ops.mobile,
      world.users.readOnly.mobile,
      world.users.safeguarding.mobile,
      world.users.limited.mobile,
      world.secrets.eventKeyA!,
      world.secrets.seriesKeyS1!,
    ]) {
      expect((await send('POST', `/events/${A}/scan_contexts`, { name: 'Nope' }, secret)).statusCode).toBe(
        403,
      );
      expect(
        (await send('PATCH', `/events/${A}/scan_contexts/${world.contexts.lunchA}`, { name: 'N' }, secret))
          .statusCode,
      ).toBe(403);
      expect(
        (await send('DELETE', `/events/${A}/scan_contexts/${world.contexts.lunchA}`, undefined, secret))
          .statusCode,
      ).toBe(403);
    }
    expect(
      (
        await send(
          'POST',
          `/events/${world.events.C.id}/scan_contexts`,
          { name: 'Nope' },
          world.users.seriesOwner.mobile,
        )
      ).statusCode,
    ).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
    const owner = await send(
      'POST',
      `/events/${world.events.B.id}/scan_contexts`,
      { name: 'B extra' },
      world.users.seriesOwner.mobile,
    );
    expect(owner.statusCode).toBe(201);
  });

  it('parallel turn-offs of two check-in contexts leave one', async () => {
    const second = (
      await send('POST', `/events/${A}/scan_contexts`, { name: 'Second door', checks_in: true })
    ).json().scan_context;
    const [r1, r2] = await Promise.all([
      send('PATCH', `/events/${A}/scan_contexts/${world.contexts.checkInA}`, { checks_in: false }),
      send('PATCH', `/events/${A}/scan_contexts/${second.id}`, { checks_in: false }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 422]);
    const [n] = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scan_contexts WHERE event_id = $1 AND checks_in',
      [A],
    );
    expect(n!.n).toBe(1);
  });
});
