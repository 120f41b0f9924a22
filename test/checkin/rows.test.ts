/**
 * Runs the check-in authorization-matrix rows (test/access/rows/checkin.ts) against the real
 * database: exact status and error body per cell, the participant key set of scan responses per
 * caller, and a replay of every denied cell proving the database is unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type CheckinMatrixRow,
  checkinRouteKeys,
  checkinRows,
  fixtureKey,
  requestFor,
  targetEvent,
} from '../access/rows/checkin.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { itEachRow } from '../support/row-cells.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let base: string;
/** One context per allowed DELETE scan_contexts cell, so rows are order-independent. */
const fixtures = new Map<string, number>();

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  for (const row of checkinRows) {
    if (row.route !== 'DELETE /api/v1/events/:event_id/scan_contexts/:id' || row.expected.status !== 200)
      continue;
    const { rows } = await t.deps.database.pool.query<{ id: number }>(
      'INSERT INTO scan_contexts (event_id, name, position) VALUES ($1, $2, 50) RETURNING id',
      [targetEvent(row, world)!.id, `Fixture ${fixtureKey(row)}`],
    );
    fixtures.set(fixtureKey(row), rows[0]!.id);
  }
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: CheckinMatrixRow) {
  return app.inject({ ...requestFor(row, world, fixtures), headers: bearer(world.secrets[row.principal]) });
}

const STREAM = 'GET /api/v1/events/:event_id/scans/stream';

/** An allowed stream cell over a real connection (inject cannot stream): status and type, then close. */
async function openStream(row: CheckinMatrixRow): Promise<{ status: number; type: string | null }> {
  const abort = new AbortController();
  const res = await fetch(`${base}${requestFor(row, world).url}`, {
    headers: bearer(world.secrets[row.principal]),
    signal: abort.signal,
  });
  abort.abort();
  return { status: res.status, type: res.headers.get('content-type') };
}

const SENSITIVE_CALLERS = new Set(['admin', 'globalToken', 'safeguarding']);

describe('check-in rows', () => {
  it('cover every principal on every check-in route, and every registered check-in route', () => {
    expect(checkinRows).toHaveLength(PRINCIPALS.length * 9 * 12);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) =>
        /^\S+ \/api\/v1\/events\/:event_id\/(scans|scan_contexts|participant_events\/:pe\/nfc_badge)/.test(k),
      )
      .sort();
    expect(registered).toEqual([...checkinRouteKeys].sort());
  });

  itEachRow({
    rows: checkinRows,
    name: (r) => `${r.route} ${r.principal} ${r.target} → ${r.expected.status}`,
    refused: (r) => r.expected.status >= 400,
    deps: () => t.deps,
    prepare: () => undefined,
    async check(row) {
      if (row.route === STREAM && row.expected.status === 200) {
        expect(await openStream(row)).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' });
        return;
      }
      const res = await send(row);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
      const body = res.json() as Record<string, unknown>;
      if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
      else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
      else if (row.route.endsWith('/nfc_badge/confirm')) expect(body.success).toBe(true);
      else if (row.route.includes('/nfc_badge/'))
        expect(Object.keys(body)).toEqual(['badge_token', 'assigned', 'assigned_at']);
      else if (row.route === 'GET /api/v1/events/:event_id/scan_contexts')
        expect(Object.keys(body)).toEqual(['scan_contexts']);
      else if (row.route.includes('/scan_contexts') && row.method === 'DELETE')
        expect(body).toEqual({ success: true, deleted_scans: 0 });
      else if (row.route.includes('/scan_contexts')) expect(Object.keys(body)).toEqual(['scan_context']);
      else if (row.method === 'GET')
        expect(Object.keys(body).sort()).toEqual(['has_more', 'scans', 'synced_at']);
      else if (row.method === 'DELETE') expect(body.success).toBe(true);
      else if (row.route.endsWith('/bulk')) {
        expect(body.results).toEqual([expect.objectContaining({ status: 'ok' })]);
      } else {
        const participant = body.participant as Record<string, unknown>;
        expect(body.success).toBe(true);
        expect('allergies' in participant).toBe(SENSITIVE_CALLERS.has(row.principal));
        expect('emergency_contacts' in participant).toBe(SENSITIVE_CALLERS.has(row.principal));
        expect('phone' in participant).toBe(row.principal !== 'limited');
      }
    },
  });
});
