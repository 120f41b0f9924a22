/**
 * Runs the airport and flight lookups' authorization rows (test/access/rows/travel-lookups.ts).
 * every bearer principal 401 with the exact envelope, every signed-in person's session 200 (the
 * check with the page's CSRF token) or 403 (without it), and the refused requests change nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  bearerLookupRows,
  type SessionLookupRow,
  sessionLookupRows,
  travelLookupRouteKeys,
  VALIDATE_ROUTE,
} from '../access/rows/travel-lookups.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, signedInBrowser } from '../web/support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp({ MUSTER_FLIGHTS_PROVIDER: 'demo' });
  app = t.app;
  world = await buildWorld(t.deps);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const cookie = (b: Browser) =>
  Object.entries(b.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

function request(route: string, headers: Record<string, string>) {
  if (route === VALIDATE_ROUTE)
    return app.inject({
      method: 'POST',
      url: '/api/v1/travel/validate_flight',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ flight_code: 'BA117', date: '2026-07-14' }),
    });
  return app.inject({ url: '/api/v1/travel/search_airports?q=dub', headers });
}

describe('airport and flight lookup rows', () => {
  it('cover every principal and every registered lookup route', () => {
    expect(bearerLookupRows).toHaveLength(PRINCIPALS.length * 2);
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => k.includes(' /api/v1/travel/'));
    expect(registered.sort()).toEqual([...travelLookupRouteKeys].sort());
  });

  it.each(bearerLookupRows.map((r) => [`${r.route} ${r.principal} → 401`, r] as const))(
    '%s',
    async (_n, row) => {
      const res = await request(row.route, bearer(world.secrets[row.principal]));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    },
  );

  it.each(
    sessionLookupRows.map(
      (r) =>
        [`${r.route} ${r.user}'s session${r.csrf ? '' : ' without CSRF'} → ${r.expected.status}`, r] as const,
    ),
  )('%s', async (_n, row: SessionLookupRow) => {
    const b = await signedInBrowser(t.deps, world.users[row.user].id);
    const token = row.csrf ? csrfOf((await getPage(app, b, '/')).body) : '';
    const res = await request(row.route, { cookie: cookie(b), 'x-csrf-token': token });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(row.expected.status);
    if (row.expected.status === 200 && row.route === VALIDATE_ROUTE)
      expect(res.json()).toMatchObject({ valid: true, flight_code: 'BA117', source: 'demo' });
    if (row.expected.status >= 400) expect(Object.keys(res.json())).toEqual(['error']);
  });

  it('refused requests change nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const row of bearerLookupRows) await request(row.route, bearer(world.secrets[row.principal]));
    expect(await snapshotDb(t.deps)).toEqual(before);
    const b = await signedInBrowser(t.deps, world.users.participant.id);
    const signedIn = await snapshotDb(t.deps);
    expect(signedIn).not.toEqual(before); // the snapshot sees a change (the session's token)
    expect((await request(VALIDATE_ROUTE, { cookie: cookie(b) })).statusCode).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(signedIn);
  }, 120_000);
});
