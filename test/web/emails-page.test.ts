/**
 * The staff email wording page (/staff/events/:event_id/emails/wording; docs/email.md): an event admin sees the
 * reminder switch and the editable emails, previews a draft (nothing saved), gets a 422 page naming
 * an unknown placeholder, saves (303, then the saved wording), resets, and switches reminders off;
 * forms without the CSRF token are refused (403) and change nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let admin: Browser;
let page: string;
let wording: string;

const q = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await t.deps.database.pool.query<T>(text, params)).rows;

beforeAll(async () => {
  t = await startTestApp({ MUSTER_BASE_URL: 'https://muster.test' });
  app = t.app;
  world = await buildWorld(t.deps);
  admin = await signedInBrowser(t.deps, world.users.eventAdmin.id);
  page = `/staff/events/${world.events.A.id}/emails`;
  wording = `${page}/wording`;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('staff emails page', () => {
  it('shows the reminder switch and the three editable emails', async () => {
    const res = await getPage(app, admin, wording);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<h1>Emails</h1>');
    expect(res.body).toMatch(
      /<input type="checkbox" id="reminders-enabled" name="enabled" value="true" checked/,
    );
    for (const title of [
      'Invitation to register',
      'Parent or guardian invitation',
      'Reminder before registration closes',
    ])
      expect(res.body).toContain(title);
    expect(res.body).toContain('aria-current="page">Emails</a>');
    expect(res.body).toContain('aria-current="page">Wording and reminders</a>');
    expect(res.body).toContain(`<a href="${page}">Sent</a>`);
  });

  it('previews a draft without saving it', async () => {
    const editor = await getPage(app, admin, `${page}/guardian_invitation`);
    expect(editor.statusCode).toBe(200);
    // The saved (default) wording's preview is shown from the start.
    expect(editor.body).toContain('needs a parent or guardian');
    const res = await postForm(
      app,
      admin,
      `${page}/guardian_invitation`,
      {
        intent: 'preview',
        subject: 'About {{participant_name}}',
        body: 'Dear {{guardian_name}},\n\nPlease help.\n\n{{link}}',
      },
      csrfOf(editor.body),
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<dd id="preview-subject">About Alex Example</dd>');
    expect(res.body).toContain('Dear Sam Example,');
    expect(res.body).toContain(
      'Review the registration and give consent:\nhttps://muster.test/guardian/accept?token=example',
    );
    expect(await q(`SELECT * FROM email_templates`)).toEqual([]);
  });

  it('re-renders the form with the problem (422) and saves nothing', async () => {
    const editor = await getPage(app, admin, `${page}/invitation`);
    const res = await postForm(
      app,
      admin,
      `${page}/invitation`,
      { intent: 'save', subject: 'Hi', body: 'Your token: {{token}}' },
      csrfOf(editor.body),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('There is a problem');
    expect(res.body).toContain('<a href="#body">Unknown placeholder {{token}};');
    expect(res.body).toContain('aria-invalid="true"');
    expect(res.body).toContain('Your token: {{token}}</textarea>');
    expect(await q(`SELECT * FROM email_templates`)).toEqual([]);
  });

  it('saves (303) and resets the wording', async () => {
    const editor = await getPage(app, admin, `${page}/invitation`);
    const saved = await postForm(
      app,
      admin,
      `${page}/invitation`,
      { intent: 'save', subject: 'See you at {{event_name}}', body: 'Hello {{first_name}}!' },
      csrfOf(editor.body),
    );
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${page}/invitation?done=saved`);
    const after = await getPage(app, admin, `${page}/invitation?done=saved`);
    expect(after.body).toContain('Saved. Emails sent from now on use this wording.');
    expect(after.body).toContain('value="See you at {{event_name}}"');
    expect(after.body).toContain('<dd id="preview-subject">See you at Summit Alpha</dd>');
    expect(await q(`SELECT template, subject FROM email_templates`)).toEqual([
      { template: 'invitation', subject: 'See you at {{event_name}}' },
    ]);
    const list = await getPage(app, admin, wording);
    expect(list.body).toContain('Your wording');

    const reset = await postForm(app, admin, `${page}/invitation/reset`, {}, csrfOf(after.body));
    expect(reset.statusCode).toBe(303);
    expect(await q(`SELECT * FROM email_templates`)).toEqual([]);
  });

  it('switches reminders off and on, audited like the event update route', async () => {
    const list = await getPage(app, admin, wording);
    const off = await postForm(app, admin, `${page}/reminders`, {}, csrfOf(list.body));
    expect([off.statusCode, off.headers.location]).toEqual([303, `${wording}?done=reminders`]);
    expect(await q(`SELECT email_reminders_enabled FROM events WHERE id = $1`, [world.events.A.id])).toEqual([
      { email_reminders_enabled: false },
    ]);
    const shown = await getPage(app, admin, `${wording}?done=reminders`);
    expect(shown.body).toMatch(/id="reminders-enabled" name="enabled" value="true" aria-describedby/);
    const on = await postForm(app, admin, `${page}/reminders`, { enabled: 'true' }, csrfOf(shown.body));
    expect(on.statusCode).toBe(303);
    expect(
      await q(
        `SELECT metadata FROM audit_log WHERE action = 'events.update' AND target_id = $1 ORDER BY id`,
        [String(world.events.A.id)],
      ),
    ).toEqual([
      { metadata: { fields: ['email_reminders_enabled'] } },
      { metadata: { fields: ['email_reminders_enabled'] } },
    ]);
  });

  it('refuses forms without the CSRF token and unknown templates, changing nothing', async () => {
    const before = await snapshotDb(t.deps);
    const forged = await postForm(app, admin, `${page}/invitation`, {
      intent: 'save',
      subject: 'x',
      body: 'y',
    });
    expect(forged.statusCode).toBe(403);
    const unknown = await getPage(app, admin, `${page}/newsletter`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
