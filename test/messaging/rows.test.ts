/**
 * Runs the chat-blast authorization-matrix rows (test/access/rows/chat-blasts.ts) against the real
 * database: exact status and error body per cell, the body's key set on success, and a replay of
 * every refused cell proving the database is unchanged. A bot token is configured (the provider is
 * a closed port: no worker runs here, nothing is delivered).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  type ChatBlastRow,
  chatBlastRouteKeys,
  chatBlastRows,
  requestFor,
} from '../access/rows/chat-blasts.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
const blasts = { A: 0, B: 0, C: 0 };

beforeAll(async () => {
  t = await startTestApp({
    MUSTER_CHAT_BOT_TOKEN: 'xoxb-matrix',
    MUSTER_CHAT_BASE_URL: 'http://127.0.0.1:9/api/',
  });
  app = t.app;
  world = await buildWorld(t.deps);
  for (const name of ['A', 'B', 'C'] as const) {
    const { rows } = await t.deps.database.pool.query<{ id: number }>(
      `INSERT INTO chat_blasts (event_id, message, sent_by, recipient_count) VALUES ($1, 'Fixture', 'Fixture', 0) RETURNING id`,
      [world.events[name].id],
    );
    blasts[name] = rows[0]!.id;
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: ChatBlastRow) {
  return app.inject({ ...requestFor(row, world, blasts), headers: bearer(world.secrets[row.principal]) });
}

const BLAST_KEYS = [
  'created_at',
  'failed_count',
  'id',
  'message',
  'recipient_count',
  'sent_by',
  'sent_count',
  'status',
];

describe('chat blast rows', () => {
  it('cover every principal on each route, and every registered chat blast route', () => {
    expect(chatBlastRows).toHaveLength(PRINCIPALS.length * 9 * 3);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => k.includes('/chat_blasts'))
      .sort();
    expect(registered).toEqual([...chatBlastRouteKeys].sort());
  });

  it.each(
    chatBlastRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const),
  )('%s', async (_name, row) => {
    const res = await send(row);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    const body = res.json() as Record<string, unknown>;
    if (row.expected.error !== undefined) expect(body).toEqual({ error: row.expected.error });
    else if (row.expected.status >= 400) expect(Object.keys(body)).toEqual(['error']);
    else if (row.route.endsWith('/chat_blasts') && row.method === 'GET') {
      expect(Object.keys(body)).toEqual(['chat_blasts']);
      expect((body.chat_blasts as unknown[]).length).toBeGreaterThan(0);
    } else expect(Object.keys(body.chat_blast as object).sort()).toEqual(BLAST_KEYS);
  });

  it('replaying every refused cell leaves the database unchanged', async () => {
    const refused = chatBlastRows.filter((r) => r.expected.status >= 400);
    const before = await snapshotDb(t.deps);
    for (const row of refused) {
      const res = await send(row);
      expect(res.statusCode, `${row.principal} ${row.route} ${row.target}`).toBe(row.expected.status);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000);
});
