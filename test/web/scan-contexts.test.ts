/**
 * The scan-context settings page (docs/checkin.md "Scan-context settings") over HTTP with the
 * session cookie and the page's CSRF token, against the real database: the form's markup, a saved
 * refuse list (audited as the API's `scan_contexts.update`) that the next scan obeys, the default
 * restored, bad input re-rendered (422), and every role that may not change a context refused with
 * a valid token (403) with the database unchanged. The matrix rows (without the token) are in
 * test/access/rows/staff/checkin.ts.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type UserName, type World } from '../support/world.js';
import { csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let A: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const page = () => `/staff/events/${A}/scan-contexts`;

/** `user` signed in, on the page: the browser and the page's CSRF token. */
async function open(user: UserName) {
  const b = await signedInBrowser(t.deps, world.users[user].id);
  const res = await getPage(app, b, page());
  return { b, res, csrf: res.statusCode === 200 ? csrfOf(res.body) : '' };
}

async function contextRow(id: number) {
  const { rows } = await t.deps.database.pool.query<{ refuse: string[] | null; tracks_presence: boolean }>(
    'SELECT refuse, tracks_presence FROM scan_contexts WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

/** A minor's entry at `contextId` through the API (ops' phone): the status answered. */
async function scanMinor(contextId: number): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/events/${A}/scans`,
    headers: bearer(world.users.ops.mobile),
    payload: { participant_id: world.regs.minorA.id, scan_context_id: contextId },
  });
  return res.statusCode;
}

describe('scan-context settings page', () => {
  it('lists each context with a labelled refuse list, presence and the CSRF token', async () => {
    const { res } = await open('eventAdmin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const check = world.contexts.checkInA;
    expect(res.body).toContain(`<h2 id="context-${check}-title">Event check-in</h2>`);
    for (const [code, checked] of [
      ['withdrawn', true],
      ['banned', true],
      ['minor', false],
    ] as const) {
      const box = new RegExp(
        `<label for="refuse-${check}-${code}"><input type="checkbox" id="refuse-${check}-${code}" name="refuse" value="${code}"${checked ? ' checked' : ''}>`,
      );
      expect(res.body).toMatch(box);
    }
    expect(res.body).toContain(`<legend>Refuse entry at Event check-in when</legend>`);
    expect(res.body).toContain('Uses the default refuse list.');
    // The default has nothing to restore.
    expect(res.body).not.toContain(`/scan-contexts/${check}/default`);
    expect(res.body).toContain('href="/staff/events/');
    expect(res.body).toMatch(/<a [^>]*href="\/staff\/events\/\d+\/scan-contexts"[^>]*>Scan contexts<\/a>/);
  });

  it('saves a refuse list (audited; the next scan obeys it) and restores the default', async () => {
    const lunch = world.contexts.lunchA;
    expect(await scanMinor(lunch)).toBe(200);
    const { b, csrf } = await open('eventAdmin');
    const saved = await postForm(
      app,
      b,
      `${page()}/${lunch}`,
      { refuse: ['minor', 'withdrawn'], tracks_presence: 'on' },
      csrf,
    );
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${page()}?done=saved#context-${lunch}`);
    expect(await contextRow(lunch)).toEqual({ refuse: ['minor', 'withdrawn'], tracks_presence: true });
    const { rows: audit } = await t.deps.database.pool.query<{ actor_user_id: number; metadata: unknown }>(
      `SELECT actor_user_id, metadata FROM audit_log WHERE action = 'scan_contexts.update' AND target_id = $1`,
      [String(lunch)],
    );
    expect(audit).toEqual([
      { actor_user_id: world.users.eventAdmin.id, metadata: { fields: ['refuse', 'tracks_presence'] } },
    ]);
    expect(await scanMinor(lunch)).toBe(409);

    const after = await getPage(app, b, `${page()}?done=saved`);
    expect(after.body).toContain('Saved. Desks use the new settings');
    expect(after.body).toContain('Uses its own refuse list.');
    const reset = await postForm(app, b, `${page()}/${lunch}/default`, {}, csrf);
    expect(reset.statusCode).toBe(303);
    expect(await contextRow(lunch)).toEqual({ refuse: null, tracks_presence: true });
    expect(await scanMinor(lunch)).toBe(200);

    // Nothing ticked: the context refuses nobody (an empty list of its own, not the default).
    const none = await postForm(app, b, `${page()}/${lunch}`, {}, csrf);
    expect(none.statusCode).toBe(303);
    expect(await contextRow(lunch)).toEqual({ refuse: [], tracks_presence: false });
  });

  it('an unknown code is 422 with the message; a context of another event is 404; both change nothing', async () => {
    const { b, csrf } = await open('eventAdmin');
    const before = await snapshotDb(t.deps);
    const bad = await postForm(app, b, `${page()}/${world.contexts.checkInA}`, { refuse: 'nope' }, csrf);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Unknown attention code: nope');
    const foreign = await postForm(app, b, `${page()}/${world.contexts.checkInC}`, { refuse: 'minor' }, csrf);
    expect(foreign.statusCode).toBe(404);
    const restore = await postForm(app, b, `${page()}/${world.contexts.checkInC}/default`, {}, csrf);
    expect(restore.statusCode).toBe(404);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('roles that may not change a context get 403 with a valid token, and nothing changes', async () => {
    for (const user of ['readOnly', 'limited', 'ops', 'safeguarding', 'participant'] as const) {
      const { b, res } = await open(user);
      expect(res.statusCode, `${user} page`).toBe(403);
      // A valid token of their own session (the 403 page's sign-out form carries one).
      const csrf = csrfOf(res.body);
      const before = await snapshotDb(t.deps);
      const save = await postForm(app, b, `${page()}/${world.contexts.checkInA}`, { refuse: 'minor' }, csrf);
      expect(save.statusCode, `${user} save`).toBe(403);
      const reset = await postForm(app, b, `${page()}/${world.contexts.checkInA}/default`, {}, csrf);
      expect(reset.statusCode, `${user} reset`).toBe(403);
      expect(await snapshotDb(t.deps)).toEqual(before);
    }
  });

  it('series roles and global admins may change a context', async () => {
    for (const user of ['seriesOwner', 'seriesOrganizer', 'admin'] as const) {
      const { b, res, csrf } = await open(user);
      expect(res.statusCode).toBe(200);
      const save = await postForm(app, b, `${page()}/${world.contexts.pickupA}`, { refuse: 'banned' }, csrf);
      expect(save.statusCode, `${user} save`).toBe(303);
    }
    expect((await contextRow(world.contexts.pickupA)).refuse).toEqual(['banned']);
  });
});
