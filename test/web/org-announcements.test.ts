/**
 * The announcements pages over app.inject with a session cookie: the compose form, a preview with
 * the first recipient's values, a bad form re-rendered with its message (nothing stored), sending
 * (303 to the announcement, whose page lists each recipient's delivery state), scheduling in the
 * event's time zone and cancelling, chat blasts on the same page, and a refused role (403 page).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAnnouncementJob } from '../../src/modules/announcements/dispatch.service.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from './support.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let admin: Browser;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  admin = await signedInBrowser(t.deps, world.users.eventAdmin.id);
  base = `/staff/events/${world.events.A.id}/announcements`;
  await t.deps.db.execute(sql`UPDATE events SET timezone = 'Europe/London' WHERE id = ${world.events.A.id}`);
  await t.deps.database.pool.query(
    `INSERT INTO chat_blasts (event_id, message, sent_by, recipient_count) VALUES ($1, 'Lunch is at noon', 'Ada Admin', 3)`,
    [world.events.A.id],
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const FORM = {
  audience: 'guardians_all',
  statuses: ['awaiting_guardian', 'complete'],
  subject: 'Pickup',
  body: 'Hello {{name}},\n\nPickup for {{participant_names}} is at five.',
  when: 'now',
};

describe('announcements pages', () => {
  it('shows the compose form, the announcements and the chat blasts', async () => {
    const res = await getPage(app, admin, base);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<h1>Announcements</h1>');
    expect(res.body).toContain('Lunch is at noon');
    expect(res.body).toContain('name="_csrf"');
    expect(res.body).toContain('aria-current="page">Announcements');
  });

  it('previews with the first recipient and stores nothing', async () => {
    const page = await getPage(app, admin, base);
    const before = await snapshotDb(t.deps);
    const res = await postForm(app, admin, base, { ...FORM, intent: 'preview' }, csrfOf(page.body));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Goes to <strong>2</strong> addresses');
    expect(res.body).toContain('Hello Gina Guardian,');
    expect(res.body).toContain('Pickup for Max is at five.');
    expect(res.body).toContain('value="Pickup"');
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('re-renders a bad form with its message and stores nothing', async () => {
    const page = await getPage(app, admin, base);
    const before = await snapshotDb(t.deps);
    const res = await postForm(
      app,
      admin,
      base,
      { ...FORM, subject: ' ', intent: 'send' },
      csrfOf(page.body),
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Subject cannot be blank');
    expect(res.body).toContain('Pickup for {{participant_names}}');
    const later = await postForm(
      app,
      admin,
      base,
      { ...FORM, when: 'later', send_at: '', intent: 'send' },
      csrfOf(page.body),
    );
    expect(later.statusCode).toBe(422);
    expect(later.body).toContain('Enter the date and time to send it');
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('"Send now" first asks, naming the number of addresses; nothing is stored until confirmed', async () => {
    const page = await getPage(app, admin, base);
    const before = await snapshotDb(t.deps);
    const res = await postForm(app, admin, base, { ...FORM, intent: 'send' }, csrfOf(page.body));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Send to 2 addresses now?');
    expect(res.body).toContain('Yes, send to 2 addresses</button>');
    expect(res.body).toContain('name="confirmed" value="yes"');
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('sends, then shows each recipient’s delivery state', async () => {
    const page = await getPage(app, admin, base);
    const res = await postForm(
      app,
      admin,
      base,
      { ...FORM, intent: 'send', confirmed: 'yes' },
      csrfOf(page.body),
    );
    expect(res.statusCode, res.body).toBe(303);
    const location = String(res.headers.location).split('#')[0]!;
    const detail = await getPage(app, admin, location);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('data-focus>Pickup</h2>');
    expect(detail.body).toContain('Sending: the emails are being prepared');
    // No worker in this file: run the announcement's job as the worker would.
    await sendAnnouncementJob(t.deps, { announcement_id: Number(/show=(\d+)/.exec(location)![1]) });
    const sent = await getPage(app, admin, location);
    expect(sent.body).toMatch(/Sent .* to 2 addresses/);
    expect(sent.body).toContain('gina.guardian@example.com');
    expect(sent.body).toContain('Waiting to send');
    const list = await getPage(app, admin, base);
    expect(list.body).toContain('>Pickup</a>');
  });

  it('schedules in the event’s time zone and cancels', async () => {
    // The next 1 July (summer time in London: UTC+1), always less than a year ahead.
    const now = new Date();
    const year = now.getUTCMonth() < 6 ? now.getUTCFullYear() : now.getUTCFullYear() + 1;
    const page = await getPage(app, admin, base);
    const res = await postForm(
      app,
      admin,
      base,
      {
        ...FORM,
        audience: 'staff',
        subject: 'Next summer',
        when: 'later',
        send_at: `${year}-07-01T09:30`,
        intent: 'send',
      },
      csrfOf(page.body),
    );
    expect(res.statusCode, res.body).toBe(303);
    const id = /show=(\d+)/.exec(String(res.headers.location))![1];
    const { rows } = await t.deps.database.pool.query<{ send_at: Date }>(
      `SELECT send_at FROM announcements WHERE id = $1`,
      [id],
    );
    expect(rows[0]!.send_at.toISOString()).toBe(`${year}-07-01T08:30:00.000Z`);
    const detail = await getPage(app, admin, String(res.headers.location).split('#')[0]!);
    expect(detail.body).toContain(`Scheduled for 1 Jul ${year}, 09:30`);
    const cancel = await postForm(app, admin, `${base}/${id}/cancel`, {}, csrfOf(detail.body));
    expect(cancel.statusCode).toBe(303);
    expect((await getPage(app, admin, String(cancel.headers.location).split('#')[0]!)).body).toContain(
      'Cancelled',
    );
  });

  it('refuses ops with a 403 page and changes nothing', async () => {
    const ops = await signedInBrowser(t.deps, world.users.ops.id);
    const own = await getPage(app, admin, base);
    const before = await snapshotDb(t.deps);
    const res = await getPage(app, ops, base);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const post = await postForm(app, ops, base, { ...FORM, intent: 'send' }, csrfOf(own.body));
    expect(post.statusCode).toBe(403);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
