/**
 * Runs the announcement authorization-matrix rows (test/access/rows/announcements.ts) against the
 * real database: exact status and error body per cell, the body's keys on success, and a replay of
 * every refused cell proving the database is unchanged (no announcement, no email, no job).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type AnnouncementRow,
  announcementRouteKeys,
  announcementRows,
} from '../access/rows/announcements.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
const sent = { A: 0, B: 0, C: 0 };

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  for (const name of ['A', 'B', 'C'] as const) {
    const { rows } = await t.deps.database.pool.query<{ id: number }>(
      `INSERT INTO announcements (event_id, subject, body, audience, status, sent_at, created_by)
       VALUES ($1, 'Fixture', 'Fixture', 'participants', 'sent', now(), 'Fixture') RETURNING id`,
      [world.events[name].id],
    );
    sent[name] = rows[0]!.id;
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function requestFor(row: AnnouncementRow) {
  const [name, form] = row.target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  const event = name === 'X' ? null : world.events[name];
  const segment = event === null ? '99999999' : form === 'uuid' ? event.uuid : String(event.id);
  const base = `/api/v1/events/${segment}/announcements`;
  const bad = form === 'bad';
  const message = {
    subject: bad ? '  ' : `Matrix ${row.principal}`,
    body: 'Hello {{name}}',
    audience: 'participants',
  };
  const id = bad ? sent.C : name === 'X' ? 1 : sent[name];
  if (row.kind === 'create') return { method: 'POST' as const, url: base, payload: message };
  if (row.kind === 'preview') return { method: 'POST' as const, url: `${base}/preview`, payload: message };
  if (row.kind === 'list') return { method: 'GET' as const, url: bad ? `${base}?limit=0` : base };
  if (row.kind === 'one') return { method: 'GET' as const, url: `${base}/${id}` };
  return { method: 'POST' as const, url: `${base}/${id}/cancel` };
}

function send(row: AnnouncementRow) {
  return app.inject({ ...requestFor(row), headers: bearer(world.secrets[row.principal]) });
}

const BODY_KEYS = {
  create: ['announcement'],
  preview: ['preview'],
  list: ['announcements'],
  one: ['announcement', 'next_after', 'recipients'],
  cancel: ['error'],
};

describe('announcement rows', () => {
  it('cover every principal on each route, and every registered announcement route', () => {
    expect(announcementRows).toHaveLength(PRINCIPALS.length * 6 * 5);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => k.includes(' /api/v1/') && k.includes('/announcements'))
      .sort();
    expect(registered).toEqual([...announcementRouteKeys].sort());
  });

  it.each(
    announcementRows.map(
      (r) => [`${r.method} ${r.kind} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const,
    ),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
    else expect(Object.keys(body).sort()).toEqual(BODY_KEYS[row.kind]);
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = announcementRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.kind} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
