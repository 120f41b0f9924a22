/**
 * The 403 message an event API key gets on series endpoints (spec "Authentication": series
 * endpoints take a series key or a user; docs/decisions.md "Credentials and roles"). It names the actual reason — the key is an
 * event key — rather than claiming a user credential is required, since series keys are allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('event API keys on series endpoints', () => {
  const routes = (w: World) => [
    '/api/v1/series',
    `/api/v1/series/${w.series.S1.id}`,
    `/api/v1/series/${w.series.S1.id}/events`,
  ];

  it.each(['eventKeyA', 'legacyKeyA'] as const)('%s gets 403 naming the event key', async (principal) => {
    for (const url of routes(world)) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(world.secrets[principal]) });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual({ error: 'Event API keys cannot access series endpoints' });
    }
  });

  it('the series key of the series is allowed on the same routes', async () => {
    for (const url of routes(world)) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(world.secrets.seriesKeyS1) });
      expect(res.statusCode, url).toBe(200);
    }
  });
});
