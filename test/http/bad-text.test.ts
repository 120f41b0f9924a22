/**
 * Bad input never becomes a 500 (quality.md "Bad input"): text with a NUL character passes the JSON
 * schema but PostgreSQL cannot store it, in a text column or inside jsonb. The error handler turns
 * that into a 422 `{error}` and nothing is written.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

const NUL_MESSAGE = { error: 'Text fields cannot contain NUL characters or invalid byte sequences' };

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('text PostgreSQL cannot store', () => {
  it('a NUL character in a ban reason is 422 and creates nothing', async () => {
    const before = await snapshotDb(t.deps);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/bans',
      headers: bearer(world.secrets.admin),
      payload: { email: 'nul-reason@example.org', reason: 'bad\u0000reason' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(NUL_MESSAGE);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('a NUL character in a staff note is 422 and creates nothing', async () => {
    const reg = world.regs.adultA;
    const before = await snapshotDb(t.deps);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/events/${world.events.A.id}/participants/${reg.id}/notes`,
      headers: bearer(world.secrets.admin),
      payload: { content: 'note\u0000with nul' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(NUL_MESSAGE);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
