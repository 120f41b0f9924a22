/**
 * Runs the staff pages' authorization matrix (test/access/rows/staff/): every page over every world
 * user and two targets, signed in through the session cookie; the route table is checked against the
 * rows (every /staff route listed, with the action it declares); refused requests change nothing.
 */
import { readdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-table.js';
import { MEETS, type StaffPage, type StaffTarget } from '../access/rows/staff/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { itEachRow } from '../support/row-cells.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { anonymousBrowser, type Browser, getPage, postForm, signedInBrowser } from './support.js';

const ROWS_DIR = new URL('../access/rows/staff/', import.meta.url);
const files = readdirSync(ROWS_DIR).filter((f) => f.endsWith('.ts') && f !== 'types.ts');
const pages: StaffPage[] = (
  await Promise.all(files.map(async (f) => (await import(new URL(f, ROWS_DIR).href)).pages as StaffPage[]))
).flat();

const USERS: UserName[] = [
  'participant',
  'readOnly',
  'limited',
  'ops',
  'eventAdmin',
  'safeguarding',
  'seriesOwner',
  'seriesOrganizer',
  'admin',
];

interface Row {
  page: StaffPage;
  user: UserName | 'anonymous';
  target: 'own' | 'foreign' | 'missing';
  status: number;
}

/** Expected answers, from MEETS (own target = event A / series S1; foreign = event C / series S2). */
function rowsOf(page: StaffPage): Row[] {
  const targets = page.target === 'none' ? (['own'] as const) : (['own', 'foreign', 'missing'] as const);
  const rows: Row[] = [];
  for (const target of targets) {
    if (page.payload !== undefined) {
      // Forms: without the CSRF token every principal is refused before anything else.
      rows.push({ page, user: 'admin', target, status: 403 });
      continue;
    }
    rows.push({ page, user: 'anonymous', target, status: page.answers ? 401 : 302 });
    for (const user of USERS) {
      const meets = MEETS[page.who].includes(user);
      let status: number;
      if (target === 'missing') status = 404;
      else if (target === 'foreign' && page.who !== 'authenticated')
        status = user === 'admin' ? (page.allowed ?? 200) : 403;
      else status = meets ? (page.allowed ?? 200) : 403;
      // The gate checks reach (403) before the target's existence only for non-admins on a real
      // target; a missing event or series is 404 for everyone.
      rows.push({ page, user, target, status });
    }
  }
  return rows;
}

const rows = pages.flatMap(rowsOf);
let t: TestApp;
let app: FastifyInstance;
let world: World;
let base: string;
const browsers = new Map<string, Browser>();

function targetOf(target: Row['target']): StaffTarget {
  if (target === 'own')
    return { event: world.events.A.id, series: world.series.S1.id, pe: world.regs.adultA.id };
  if (target === 'foreign')
    return { event: world.events.C.id, series: world.series.S2.id, pe: world.regs.regC.id };
  return { event: 999_999_999, series: '00000000-0000-4000-8000-000000000000', pe: 999_999_999 };
}

async function browserOf(user: Row['user']): Promise<Browser> {
  if (user === 'anonymous') return anonymousBrowser();
  let b = browsers.get(user);
  if (!b) {
    b = await signedInBrowser(t.deps, world.users[user].id);
    browsers.set(user, b);
  }
  return b;
}

/** An event stream over a real connection (inject waits for an end that never comes): the head only. */
async function openStream(url: string, b: Browser) {
  const abort = new AbortController();
  const cookie = Object.entries(b.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
  const res = await fetch(`${base}${url}`, { headers: { cookie }, signal: abort.signal });
  const body = res.status === 200 ? '' : await res.text();
  abort.abort();
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body };
}

/** The content type a row's answer must have. */
function contentTypeOf(row: Row): string {
  if (!row.page.answers) {
    const html = 'text/html; charset=utf-8';
    return row.status === 200 ? (row.page.contentType ?? html) : html;
  }
  if (row.page.answers === 'stream' && row.status === 200) return 'text/event-stream; charset=utf-8';
  return 'application/json; charset=utf-8';
}

async function send(row: Row) {
  const url = row.page.url(targetOf(row.target));
  const b = await browserOf(row.user);
  if (row.page.answers === 'stream') return openStream(url, b);
  if (row.page.payload === undefined) return getPage(app, b, url);
  return postForm(app, b, url, Object.fromEntries(new URLSearchParams(row.page.payload)));
}

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('staff page rows', () => {
  it('list every /staff route once, with the action it declares and the session cookie', () => {
    const staff = registeredRoutes(app).filter((r) => r.url === '/staff' || r.url.startsWith('/staff/'));
    const keys = staff.map((r) => `${r.method} ${r.url}`).sort();
    expect(keys).toEqual(pages.map((p) => p.route).sort());
    for (const r of staff) {
      const page = pages.find((p) => p.route === `${r.method} ${r.url}`)!;
      expect({ action: r.action, credential: r.credential }, page.route).toEqual({
        action: page.action,
        credential: 'session_cookie',
      });
    }
  });

  itEachRow({
    rows,
    name: (r) => `${r.page.route} ${r.user} ${r.target} → ${r.status}`,
    refused: (r) => r.status >= 300,
    deps: () => t.deps,
    // A user's first request signs them in (a new session row): before the first snapshot.
    prepare: (row) => browserOf(row.user),
    async check(row) {
      const res = await send(row);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.status);
      if (row.status === 302) expect(String(res.headers.location)).toMatch(/^\/signin\?next=/);
      else {
        expect(res.headers['content-type']).toBe(contentTypeOf(row));
        expect(res.headers['cache-control']).toMatch(/^no-store\b/);
      }
    },
  });

  it('serves only the scripts in web/public/js (anything else is a 404 page)', async () => {
    for (const url of ['/assets/js/..%2Fmuster.css', '/assets/js/nope.js', '/assets/js/staff.js.map']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
    const res = await app.inject({ method: 'GET', url: '/assets/htmx.min.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('htmx');
    // Public scripts are cacheable (no personal data); pages stay no-store.
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const wasm = await app.inject({ method: 'GET', url: '/assets/vendor/zxing_reader.wasm' });
    expect(wasm.headers['cache-control']).toBe('public, max-age=86400');
    const css = await app.inject({ method: 'GET', url: '/assets/muster.css' });
    expect(css.headers['cache-control']).toBe('no-store');
  });
});
