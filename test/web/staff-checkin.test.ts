/**
 * The check-in desk's page and data routes over HTTP (app.inject; the live stream over a real
 * connection), against the real database: who gets the page, what its data routes answer with
 * the session cookie and the page's CSRF token, that a replayed client_scan_id stores one scan,
 * that refused posts change nothing, and that the stream delivers with the session cookie alone.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskParticipant } from '../../src/modules/checkin/desk.service.js';
import { searchRoster } from '../../web/public/js/desk-find.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { openSse } from '../support/sse.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const desk = () => `/staff/events/${world.events.A.id}/checkin`;
const cookieHeader = (b: Browser) =>
  Object.entries(b.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** Signs `user` in and opens the desk: the browser (with its CSRF cookie), the page and its token. */
async function openDesk(user: UserName) {
  const b = await signedInBrowser(t.deps, world.users[user].id);
  const page = await getPage(app, b, desk());
  const csrf = /data-csrf="([^"]+)"/.exec(page.body)?.[1];
  return { b, page, csrf };
}

/** A JSON post as the desk's scripts send it: session and CSRF cookies, the token in X-CSRF-Token. */
function postJson(b: Browser, url: string, csrf: string | undefined, body: unknown) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', cookie: cookieHeader(b), 'x-csrf-token': csrf ?? '' },
    payload: JSON.stringify(body),
  });
}

async function scanCount(registrationId: number, contextId: number): Promise<number> {
  const { rows } = await t.deps.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM scans WHERE registration_id = $1 AND scan_context_id = $2',
    [registrationId, contextId],
  );
  return rows[0]!.n;
}

describe('check-in desk page', () => {
  it('shows ops the contexts, the settings its scripts read, and sends the staff headers', async () => {
    const { page, csrf } = await openDesk('ops');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(page.body).toContain('<h1 class="desk-title">Check-in desk</h1>');
    expect(page.body).toMatch(
      new RegExp(
        `<option value="${world.contexts.checkInA}" data-refuse="withdrawn rejected banned" data-presence="false" data-pickup="false" selected>`,
      ),
    );
    // ops may not let a refused person in: the desk offers no override (the API answers 403 anyway).
    expect(page.body).toContain('data-may-override="false"');
    expect(page.body).toContain(`value="${world.contexts.lunchA}"`);
    expect(page.body).toContain('data-can-cache="true"');
    expect(page.body).toContain('<script type="module" src="/assets/js/desk.js"></script>');
    expect(page.body).toContain('src="/assets/vendor/zxing-reader.js"');
    expect(csrf).toBeTruthy();
    expect(page.body).not.toMatch(/<script>|on(click|load|submit)=/); // no inline script or handler
  });

  it('preselects ?context= and ignores a context of another event', async () => {
    const b = await signedInBrowser(t.deps, world.users.limited.id);
    const lunch = await getPage(app, b, `${desk()}?context=${world.contexts.lunchA}`);
    expect(lunch.body).toMatch(new RegExp(`<option value="${world.contexts.lunchA}" [^>]*selected>`));
    const other = await getPage(app, b, `${desk()}?context=${world.contexts.checkInC}`);
    expect(other.statusCode).toBe(200);
    expect(other.body).toMatch(new RegExp(`<option value="${world.contexts.checkInA}" [^>]*selected>`));
  });

  it('refuses read_only (no writes at the door) with the 403 page, and sends visitors to sign in', async () => {
    const { page } = await openDesk('readOnly');
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toContain('text/html');
    const anonymous = await app.inject({ method: 'GET', url: desk() });
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(`/signin?next=${encodeURIComponent(desk())}`);
  });

  it('sign-out asks the browser to clear the site storage (the desk cache)', async () => {
    const { b, page } = await openDesk('ops');
    const res = await postForm(app, b, '/signout', {}, csrfOf(page.body));
    expect(res.statusCode).toBe(200);
    expect(res.headers['clear-site-data']).toBe('"storage"');
  });

  it('serves the QR decoder and its WebAssembly from this origin', async () => {
    const js = await app.inject({ method: 'GET', url: '/assets/vendor/zxing-reader.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toContain('ZXingWASM');
    const wasm = await app.inject({ method: 'GET', url: '/assets/vendor/zxing_reader.wasm' });
    expect(wasm.statusCode).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.rawPayload.subarray(0, 4).toString('hex')).toBe('0061736d'); // "\0asm"
    for (const name of [
      'desk.js',
      'desk-store.js',
      'desk-sync.js',
      'desk-find.js',
      'desk-view.js',
      'desk-scanner.js',
    ]) {
      expect((await app.inject({ method: 'GET', url: `/assets/js/${name}` })).statusCode, name).toBe(200);
    }
  });
});

describe('check-in desk data routes', () => {
  it('search: the API search in the compact shape, no PII even for callers who may see it', async () => {
    const { b } = await openDesk('ops');
    const reg = world.regs.adultA;
    const res = await getPage(app, b, `${desk()}/search?q=${encodeURIComponent(reg.lastName)}`);
    expect(res.statusCode).toBe(200);
    const { results } = res.json() as { results: Record<string, unknown>[] };
    expect(results.map((r) => r.participant_event_id)).toContain(reg.id);
    expect(Object.keys(results[0]!).sort()).toEqual(
      [
        'attention_codes',
        'display_name',
        'email',
        'full_name',
        'participant_event_id',
        'participant_id',
        'scanned_context_ids',
        'status',
      ].sort(),
    );
    expect((await getPage(app, b, `${desk()}/search?q=${'x'.repeat(201)}`)).statusCode).toBe(422);
    expect((await getPage(app, b, `${desk()}/search?q=%20`)).json()).toEqual({ results: [] });
  });

  it('offline search (desk-find.js over the cached list) finds what the server search finds, in its order', async () => {
    const { b } = await openDesk('ops');
    const roster = (await getPage(app, b, `${desk()}/participants`)).json() as {
      participants: DeskParticipant[];
    };
    const { adultA, minorA } = world.regs;
    const terms = [
      adultA.firstName,
      adultA.lastName.toUpperCase(),
      adultA.email.slice(0, 4),
      String(minorA.id),
      'a',
      'e',
      '  ',
      'zzz-nobody',
    ];
    for (const term of terms) {
      const server = (await getPage(app, b, `${desk()}/search?q=${encodeURIComponent(term)}`)).json() as {
        results: DeskParticipant[];
      };
      const offline = searchRoster(roster.participants, term) as DeskParticipant[];
      expect(
        offline.map((p) => p.participant_event_id),
        term,
      ).toEqual(server.results.map((p) => p.participant_event_id));
    }
  });

  it('participants (the offline cache): every registration for limited, 403 JSON for read_only, 401 signed out', async () => {
    const { b } = await openDesk('limited');
    const res = await getPage(app, b, `${desk()}/participants`);
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as { participants: { participant_event_id: number }[] }).participants.map(
      (p) => p.participant_event_id,
    );
    expect(ids).toEqual(expect.arrayContaining([world.regs.adultA.id, world.regs.minorA.id]));
    expect(res.body).not.toMatch(/"phone"|date_of_birth|"address"/);
    const ro = await signedInBrowser(t.deps, world.users.readOnly.id);
    const refused = await getPage(app, ro, `${desk()}/participants`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toHaveProperty('error');
    const out = await app.inject({ method: 'GET', url: `${desk()}/participants` });
    expect(out.statusCode).toBe(401);
    expect(out.json()).toEqual({ error: 'Sign in to continue' });
  });

  it('scans: one tap stores a scan; a replay of the same client_scan_id stores nothing more', async () => {
    const { b, csrf } = await openDesk('ops');
    const reg = world.regs.minorA;
    const context = world.contexts.lunchA;
    const before = await scanCount(reg.id, context);
    const scan = {
      participant_id: String(reg.id),
      scan_context_id: context,
      client_scan_id: 'desk-test-1',
      source: 'manual',
    };
    const first = await postJson(b, `${desk()}/scans`, csrf, { scans: [scan] });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      results: [{ client_scan_id: 'desk-test-1', status: 'ok', outcome: 'scanned', deduplicated: false }],
    });
    const again = await postJson(b, `${desk()}/scans`, csrf, {
      scans: [scan, { ...scan, client_scan_id: 'desk-test-404', participant_id: '999999999' }],
    });
    expect(again.json()).toMatchObject({
      results: [
        { client_scan_id: 'desk-test-1', status: 'ok', outcome: 'scanned', deduplicated: true },
        { client_scan_id: 'desk-test-404', status: 'error', error: 'Participant not found for this event' },
      ],
    });
    expect(await scanCount(reg.id, context)).toBe(before + 1);
    // The API's own bulk body: anything else is refused.
    const extra = await postJson(b, `${desk()}/scans`, csrf, { _csrf: csrf, scans: [scan] });
    expect(extra.statusCode).toBe(422);

    const undo = await postJson(b, `${desk()}/undo`, csrf, {
      participant_id: String(reg.id),
      scan_context_id: context,
    });
    expect(undo.statusCode).toBe(200);
    expect(undo.json()).toMatchObject({
      success: true,
      deleted_scans: before + 1,
      participant_event_id: reg.id,
    });
    expect(await scanCount(reg.id, context)).toBe(0);
  });

  it('one tap: the door’s verdict; a refused entry answers 409 and stores nothing; an override needs a role that may', async () => {
    const { b, csrf } = await openDesk('ops');
    const reg = world.regs.adultA;
    const context = world.contexts.checkInA;
    await t.deps.database.pool.query(`UPDATE registrations SET status = 'withdrawn' WHERE id = $1`, [reg.id]);
    try {
      const stored = await scanCount(reg.id, context);
      const before = await snapshotDb(t.deps);
      const scan = {
        participant_id: String(reg.id),
        scan_context_id: context,
        client_scan_id: 'desk-one-1',
        source: 'manual',
      };
      const refused = await postJson(b, `${desk()}/scan`, csrf, scan);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        error: 'Not admitted: Registration withdrawn',
        verdict: 'refused',
        attention: expect.arrayContaining([{ code: 'withdrawn', message: 'Registration withdrawn' }]),
      });
      // ops may not override: 403, still nothing stored.
      const forced = await postJson(b, `${desk()}/scan`, csrf, {
        ...scan,
        force: true,
        reason: 'known to us',
      });
      expect(forced.statusCode).toBe(403);
      expect(await snapshotDb(t.deps)).toEqual(before);
      // An event admin may, with a reason: stored, forced.
      const admin = await openDesk('eventAdmin');
      const noReason = await postJson(admin.b, `${desk()}/scan`, admin.csrf, { ...scan, force: true });
      expect(noReason.statusCode).toBe(422);
      const ok = await postJson(admin.b, `${desk()}/scan`, admin.csrf, {
        ...scan,
        force: true,
        reason: 'known to us',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ verdict: 'refused', forced: true, scan: { forced: true } });
      expect(await scanCount(reg.id, context)).toBe(stored + 1);
      const undo = await postJson(admin.b, `${desk()}/undo`, admin.csrf, {
        participant_id: String(reg.id),
        scan_context_id: context,
      });
      expect(undo.statusCode).toBe(200);
    } finally {
      await t.deps.database.pool.query(`UPDATE registrations SET status = 'complete' WHERE id = $1`, [
        reg.id,
      ]);
    }
  });

  it('refuses posts without the CSRF token, from read_only, and with a bad body, changing nothing', async () => {
    const ops = await openDesk('ops');
    const ro = await signedInBrowser(t.deps, world.users.readOnly.id);
    const scan = {
      participant_id: String(world.regs.adultA.id),
      scan_context_id: world.contexts.lunchA,
      client_scan_id: 'desk-refused',
    };
    const before = await snapshotDb(t.deps);
    const noToken = await postJson(ops.b, `${desk()}/scans`, 'forged', { scans: [scan] });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json()).toHaveProperty('error');
    // read_only holds a valid CSRF token of their own (the 403 page's sign-out form), but the gate refuses them.
    const roCsrf = csrfOf((await getPage(app, ro, desk())).body);
    const readOnly = await postJson(ro, `${desk()}/scans`, roCsrf, { scans: [scan] });
    expect(readOnly.statusCode).toBe(403);
    const roUndo = await postJson(ro, `${desk()}/undo`, roCsrf, {
      participant_id: String(world.regs.adultA.id),
      scan_context_id: world.contexts.checkInA,
    });
    expect(roUndo.statusCode).toBe(403);
    const empty = await postJson(ops.b, `${desk()}/scans`, ops.csrf, { scans: [] });
    expect(empty.statusCode).toBe(422);
    const tooLong = await postJson(ops.b, `${desk()}/scans`, ops.csrf, {
      scans: [{ ...scan, participant_id: 'x'.repeat(201) }],
    });
    expect(tooLong.statusCode).toBe(422);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('stream: the live feed with the session cookie alone (no bearer token)', async () => {
    const { b, csrf } = await openDesk('eventAdmin');
    const stream = await openSse(`${base}${desk()}/stream`, { cookie: cookieHeader(b) });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toContain('text/event-stream');
      const reg = world.regs.adultA;
      const res = await postJson(b, `${desk()}/scans`, csrf, {
        scans: [
          {
            participant_id: String(reg.id),
            scan_context_id: world.contexts.lunchA,
            client_scan_id: 'desk-stream-1',
          },
        ],
      });
      expect(res.statusCode).toBe(200);
      const message = await stream.next({ timeoutMs: 30_000 });
      expect(message.event).toBe('scan');
      expect(JSON.parse(message.data)).toMatchObject({
        participant_event_id: reg.id,
        client_scan_id: 'desk-stream-1',
        scanner: { id: world.users.eventAdmin.id },
      });
    } finally {
      stream.close();
    }
    const none = await fetch(`${base}${desk()}/stream`);
    expect(none.status).toBe(401);
  });
});
