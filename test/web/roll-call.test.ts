/**
 * The roll call page (docs/checkin.md "Roll call") over HTTP against the real database: who was
 * collected by whom reaches only callers who may read personal data (a `limited` door user sees
 * that the minor left, never the collector's name), `read_only` gets the 403 page, and the lists
 * follow the stored entries and exits. The page's live reload is in test/browser/door.test.ts.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { getPage, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let gate: number;
const COLLECTOR = 'Zed Collector';

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  const { rows } = await t.deps.database.pool.query<{ id: number }>(
    `INSERT INTO scan_contexts (event_id, name, position, tracks_presence) VALUES ($1, 'Dorm', 9, true) RETURNING id`,
    [world.events.A.id],
  );
  gate = rows[0]!.id;
  for (const [pe, type] of [
    [world.regs.minorA.id, 'entry'],
    [world.regs.minorA.id, 'exit'],
    [world.regs.adultA.id, 'entry'],
  ] as const) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}/scans`,
      headers: bearer(world.users.ops.mobile),
      payload: {
        participant_id: pe,
        scan_context_id: gate,
        type,
        ...(type === 'exit' ? { collected_by: COLLECTOR } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function rollCall(user: UserName) {
  const b = await signedInBrowser(t.deps, world.users[user].id);
  return getPage(app, b, `/staff/events/${world.events.A.id}/roll-call?context=${gate}`);
}

/** The `<li>` of registration `pe` in the list with id `list`, or undefined. */
const itemOf = (html: string, list: string, pe: number) => {
  const body = new RegExp(`<ul class="roll-list" id="${list}"[^>]*>([\\s\\S]*?)</ul>`).exec(html)?.[1] ?? '';
  return new RegExp(`<li data-pe="${pe}">[\\s\\S]*?</li>`).exec(body)?.[0];
};

describe('roll call page', () => {
  it('shows who is inside and who left; the collector only to callers who may read personal data', async () => {
    for (const user of ['ops', 'eventAdmin', 'safeguarding', 'limited'] as const) {
      const res = await rollCall(user);
      expect(res.statusCode, user).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(itemOf(res.body, 'roll-inside', world.regs.adultA.id), user).toBeDefined();
      const left = itemOf(res.body, 'roll-left', world.regs.minorA.id);
      expect(left, user).toBeDefined();
      if (user === 'limited') expect(res.body).not.toContain(COLLECTOR);
      else expect(left).toContain(`collected by ${COLLECTOR}`);
      expect(itemOf(res.body, 'roll-missing', world.regs.adultA.id)).toBeUndefined();
    }
  });

  it('is a 403 page for read_only', async () => {
    expect((await rollCall('readOnly')).statusCode).toBe(403);
  });
});
