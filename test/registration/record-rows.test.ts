/**
 * Runs the own-record authorization-matrix rows (test/access/rows/registrations-record.ts) against
 * the real database: exact status and error body per cell, the participant payload's shape on
 * success, and a replay of every refused cell proving the database is unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type RecordRow,
  recordRequest,
  recordRouteKeys,
  recordRows,
} from '../access/rows/registrations-record.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { expectParticipantShape } from '../support/keys.js';
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

function send(row: RecordRow) {
  return app.inject({ ...recordRequest(row, world), headers: bearer(world.secrets[row.principal]) });
}

describe('own record rows', () => {
  it('cover every principal on both routes, and every registered /registrations/{id} route', () => {
    expect(recordRows).toHaveLength(PRINCIPALS.length * 5 * 2);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => /\/registrations\/:participant_event_id$/.test(k))
      .sort();
    expect(registered).toEqual([...recordRouteKeys].sort());
  });

  it.each(
    recordRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) {
      const { problems } = row.expected;
      expect(body).toEqual({ error: row.expected.error, ...(problems ? { problems } : {}) });
    } else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
    else {
      expect(Object.keys(body)).toEqual(['participant']);
      const reg = world.regs.adultA;
      expectParticipantShape(body.participant as Record<string, unknown>, 'sensitive', reg, true);
    }
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = recordRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
