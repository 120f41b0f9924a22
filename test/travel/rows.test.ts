/**
 * Runs the travel-calendar and notes authorization-matrix rows (test/access/rows/travel-notes.ts)
 * against the real database: exact status and error body per cell, the body's key set on success,
 * and a replay of every refused cell proving the database is unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  requestFor,
  type TravelNotesRow,
  travelNotesRouteKeys,
  travelNotesRows,
} from '../access/rows/travel-notes.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: TravelNotesRow) {
  return app.inject({ ...requestFor(row, world), headers: bearer(world.secrets[row.principal]) });
}

describe('travel calendar and notes rows', () => {
  it('cover every principal on each route, and every registered travel/notes route', () => {
    expect(travelNotesRows).toHaveLength(PRINCIPALS.length * (10 + 12 + 12));
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => /\/(travel|notes)$/.test(k) && !k.includes(' /staff/'))
      .sort();
    expect(registered).toEqual([...travelNotesRouteKeys].sort());
  });

  it.each(
    travelNotesRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
    else if (row.route.endsWith('/travel'))
      expect(Object.keys(body).sort()).toEqual(['counts', 'dates', 'entries', 'eventTimezone']);
    else if (row.method === 'GET') expect(Object.keys(body)).toEqual(['notes']);
    else
      expect(Object.keys(body.note as object).sort()).toEqual([
        'author',
        'content',
        'created_at',
        'id',
        'note_type',
        'sensitivity',
      ]);
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = travelNotesRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
