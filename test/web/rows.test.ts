/**
 * Runs the web pages' authorization-matrix rows (test/access/rows/web.ts): every principal gets the
 * same answer (bearer credentials play no part on pages), and refused requests change nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import {
  isRefused,
  PAGE_DECLARATIONS,
  type SessionTargets,
  type WebMatrixRow,
  webRouteKeys,
  webRows,
  webSessionRows,
} from '../access/rows/web.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, PRINCIPALS, type World } from '../support/world.js';
import { getPage, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let consentOfAdultA: number;

function targets(): SessionTargets {
  return { adultA: world.regs.adultA.id, minorA: world.regs.minorA.id, consentOfAdultA };
}

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  const res = await t.deps.database.pool.query<{ id: number }>(
    `SELECT id FROM consents WHERE registration_id = $1 ORDER BY id LIMIT 1`,
    [world.regs.adultA.id],
  );
  consentOfAdultA = Number(res.rows[0]!.id);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function send(row: WebMatrixRow) {
  return app.inject({
    method: row.method,
    url: row.url,
    headers: {
      accept: 'text/html',
      ...(row.payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      ...bearer(world.secrets[row.principal]),
    },
    ...(row.payload === undefined ? {} : { payload: row.payload }),
  });
}

describe('web page rows', () => {
  it('cover every principal on every page route; each page declares what the table says, never a bearer credential', () => {
    expect(webRows).toHaveLength(PRINCIPALS.length * webRouteKeys.length);
    // The staff pages (/staff…) have their own matrix: test/access/rows/staff/, test/web/staff-rows.test.ts.
    // GET /metrics is an operations route, not a page: test/access/rows/operations.ts holds its rows.
    const pages = registeredRoutes(app).filter(
      (r) =>
        !r.url.startsWith('/api/v1') &&
        r.url !== '/staff' &&
        !r.url.startsWith('/staff/') &&
        r.url !== '/metrics',
    );
    expect(pages.map((r) => `${r.method} ${r.url}`).sort()).toEqual([...webRouteKeys].sort());
    expect(Object.keys(PAGE_DECLARATIONS).sort()).toEqual([...webRouteKeys].sort());
    for (const r of pages) {
      const key = `${r.method} ${r.url}`;
      const declared = PAGE_DECLARATIONS[key];
      if (declared === 'public')
        expect({ public: r.public, action: r.action }, key).toEqual({ public: 'none' });
      else
        expect({ action: r.action, credential: r.credential }, key).toEqual({
          action: declared?.action,
          credential: declared?.credential ?? 'session_cookie',
        });
    }
  });

  it.each(webRows.map((r) => [`${r.route} ${r.principal} ${r.target} → ${r.expected.status}`, r] as const))(
    '%s',
    async (_name, row) => {
      const res = await send(row);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
      const type = String(res.headers['content-type'] ?? '');
      if (row.expected.contentType === 'html') {
        expect(type).toBe('text/html; charset=utf-8');
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
        expect(res.body).toContain('<html lang="en" dir="ltr">');
      }
      if (row.expected.contentType === 'css') expect(type).toBe('text/css; charset=utf-8');
      if (row.expected.contentType === 'js') expect(type).toBe('text/javascript; charset=utf-8');
      if (row.expected.contentType === 'wasm') expect(type).toBe('application/wasm');
      if (row.expected.location) expect(String(res.headers.location)).toContain(row.expected.location);
    },
  );

  it.each(
    webSessionRows.map(
      (r) => [`${r.route} ${r.user}'s session ${r.target} → ${r.expected.status}`, r] as const,
    ),
  )('%s', async (_name, row) => {
    const browser = await signedInBrowser(t.deps, world.users[row.user].id);
    const res = await getPage(app, browser, row.url(targets()));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    if (row.expected.text) expect(res.body).toContain(row.expected.text);
  });

  it('refused requests change nothing in the database', async () => {
    const refused = webRows.filter(isRefused);
    expect(refused.length).toBeGreaterThan(PRINCIPALS.length);
    const before = await snapshotDb(t.deps);
    for (const row of refused) expect((await send(row)).statusCode).toBe(row.expected.status);
    expect(await snapshotDb(t.deps)).toEqual(before);
  }, 120_000); // every refused row, then two database snapshots: up to 6 s in CI
});
