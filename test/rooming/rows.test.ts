/**
 * Runs the rooming authorization-matrix rows (test/access/rows/rooming.ts) against the real
 * database: exact status and error body per cell, and a replay of every refused cell proving the
 * database is unchanged. Each cell gets its own room where it acts on one.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { type RoomingRow, roomingRouteKeys, roomingRows } from '../access/rows/rooming.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let counter = 0;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

type Request = { method: RoomingRow['method']; url: string; payload?: Record<string, unknown> };

async function roomOn(eventId: number): Promise<number> {
  counter++;
  const { rows } = await t.deps.database.pool.query(
    `INSERT INTO rooms (event_id, name, capacity, type, gender_designation) VALUES ($1, $2, 2, 'twin', 'any') RETURNING id`,
    [eventId, `Fixture ${counter}`],
  );
  return (rows[0] as { id: number }).id;
}

async function prepare(row: RoomingRow): Promise<Request> {
  counter++;
  const [name, form] = row.target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  const event = name === 'X' ? null : world.events[name];
  const segment = event === null ? '99999999' : form === 'uuid' ? event.uuid : String(event.id);
  const base = `/api/v1/events/${segment}`;
  const onEvent = event ?? world.events.A;
  const room = () => roomOn(onEvent.id);
  switch (`${row.method} ${row.path}`) {
    case 'GET /events/:event_id/rooms':
      return { method: 'GET', url: `${base}/rooms` };
    case 'GET /events/:event_id/rooms/door-lists.pdf':
      return { method: 'GET', url: `${base}/rooms/door-lists.pdf` };
    case 'POST /events/:event_id/rooms':
      return {
        method: 'POST',
        url: `${base}/rooms`,
        payload: { name: `Room ${counter}`, capacity: 4, type: 'dorm', gender_designation: 'female' },
      };
    case 'POST /events/:event_id/rooms/import':
      return {
        method: 'POST',
        url: `${base}/rooms/import`,
        payload: { csv: `name,capacity,type,gender_designation\nCsv ${counter},1,single,male\n` },
      };
    case 'PATCH /events/:event_id/rooms/:id':
      return { method: 'PATCH', url: `${base}/rooms/${await room()}`, payload: { quiet: true } };
    case 'DELETE /events/:event_id/rooms/:id':
      return { method: 'DELETE', url: `${base}/rooms/${await room()}` };
    case 'GET /events/:event_id/rooming/rules':
      return { method: 'GET', url: `${base}/rooming/rules` };
    case 'PUT /events/:event_id/rooming/rules':
      return { method: 'PUT', url: `${base}/rooming/rules`, payload: { max_age_gap: 2 } };
    case 'POST /events/:event_id/rooming/plan':
      return { method: 'POST', url: `${base}/rooming/plan`, payload: {} };
    default: {
      const reg = { A: world.regs.adultA, B: world.regs.regB, C: world.regs.regC, X: world.regs.adultA }[
        name
      ];
      return {
        method: 'POST',
        url: `${base}/rooming/apply`,
        payload: { assignments: [{ participant_event_id: reg.id, room_id: null }] },
      };
    }
  }
}

function send(row: RoomingRow, request: Request) {
  return app.inject({ ...request, headers: bearer(world.secrets[row.principal]) });
}

describe('rooming API rows', () => {
  it('cover every principal on each route, and every registered rooming route', () => {
    expect(roomingRows).toHaveLength(PRINCIPALS.length * 10 * 5);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => /\/api\/v1\/events\/:event_id\/(rooms|rooming)(\/|$)/.test(k) && !k.startsWith('HEAD'))
      .sort();
    expect(registered).toEqual([...roomingRouteKeys].sort());
  });

  it.each(
    roomingRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row, await prepare(row));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    if (row.expected.error !== undefined) expect(res.json()).toEqual({ error: row.expected.error });
    else if (row.expected.status === 204) expect(res.body).toBe('');
    else if (row.path.endsWith('.pdf')) expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    else expect(Object.keys(res.json() as object).length).toBeGreaterThan(0);
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = roomingRows.filter((r) => r.expected.status >= 400);
    const prepared: [RoomingRow, Request][] = [];
    for (const row of refused) prepared.push([row, await prepare(row)]);
    const before = await snapshotDb(t.deps);
    for (const [row, request] of prepared) {
      const res = await send(row, request);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 300_000);
});
