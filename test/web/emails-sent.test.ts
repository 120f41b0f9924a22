/**
 * The Emails tab (GET /staff/events/:event_id/emails; docs/email.md "Emails sent") over app.inject:
 * an event admin sees what went out for the event — an invitation sent from the Invitations page,
 * a guardian link resent from the participant page, an announcement (its row links to the
 * announcement's delivery view) — each with its delivery state from the email log; sign-in codes
 * and another event's emails are never listed; filters by kind, state and address; paging; an
 * unknown filter value is a 422 page naming the field; the wording stays one sub-tab away; roles
 * that may not read it get a 403 page and the database is unchanged.
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

const logRow = async (to: string) =>
  (
    await t.deps.db.execute<{ id: number }>(
      sql`SELECT id FROM email_log WHERE to_email = ${to} ORDER BY id DESC LIMIT 1`,
    )
  ).rows[0]!.id;

beforeAll(async () => {
  t = await startTestApp({ MUSTER_BASE_URL: 'https://muster.test' });
  app = t.app;
  world = await buildWorld(t.deps);
  admin = await signedInBrowser(t.deps, world.users.eventAdmin.id);
  const ops = await signedInBrowser(t.deps, world.users.ops.id);
  base = `/staff/events/${world.events.A.id}`;
  // An invitation from the Invitations page (ops may invite).
  const inv = await getPage(app, ops, `${base}/invitations`);
  await postForm(app, ops, `${base}/invitations`, { email: 'newcomer@example.org' }, csrfOf(inv.body));
  // A guardian link from the participant page.
  const minor = `${base}/participants/${world.regs.minorA.id}`;
  const gus = (
    await t.deps.db.execute<{ id: number }>(sql`SELECT id FROM guardians WHERE name = 'Gus Guardian'`)
  ).rows[0]!.id;
  const page = await getPage(app, ops, minor);
  await postForm(app, ops, `${minor}/guardians/${gus}/resend`, {}, csrfOf(page.body));
  // An announcement to the event's team, sent as the worker would.
  const ann = await getPage(app, admin, `${base}/announcements`);
  const sent = await postForm(
    app,
    admin,
    `${base}/announcements`,
    {
      audience: 'staff',
      subject: 'Team briefing',
      body: 'Hello {{name}}',
      when: 'now',
      intent: 'send',
      confirmed: 'yes',
    },
    csrfOf(ann.body),
  );
  await sendAnnouncementJob(t.deps, {
    announcement_id: Number(/show=(\d+)/.exec(String(sent.headers.location))![1]),
  });
  // Delivery states as the provider's webhook records them; a sign-in code and another event's mail.
  await t.deps.db.execute(
    sql`UPDATE email_log SET status = 'bounced', bounced_at = now(), error = 'Mailbox does not exist'
         WHERE id = ${await logRow('newcomer@example.org')}`,
  );
  await t.deps.db.execute(
    sql`UPDATE email_log SET status = 'delivered', sent_at = now(), delivered_at = now()
         WHERE id = ${await logRow('gus.guardian@example.com')}`,
  );
  await t.deps.db.execute(sql`
    INSERT INTO email_log (to_email, from_email, template, subject, status, event_id) VALUES
      ('code.reader@example.org', 'muster@example.org', 'sign_in_code', 'Your Muster sign-in code', 'sent', ${world.events.A.id}),
      ('elsewhere@example.org', 'muster@example.org', 'invitation', 'Another event', 'sent', ${world.events.C.id}),
      ('blocked@example.org', 'muster@example.org', 'invitation', 'Blocked', 'suppressed', ${world.events.A.id})`);
  await t.deps.db.execute(
    sql`UPDATE email_log SET error = 'Not sent: the address is suppressed after a hard bounce or complaint'
         WHERE to_email = 'blocked@example.org'`,
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('emails sent', () => {
  it('lists what went out for the event with each delivery state; no sign-in codes, no other event', async () => {
    const res = await getPage(app, admin, `${base}/emails`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('aria-current="page">Emails</a>');
    expect(res.body).toContain('aria-current="page">Sent</a>');
    expect(res.body).toContain(`<a href="${base}/emails/wording">Wording and reminders</a>`);
    const row = (to: string) =>
      new RegExp(`<tr>(?:(?!</tr>).)*${to}(?:(?!</tr>).)*</tr>`, 's').exec(res.body)?.[0];
    expect(row('newcomer@example.org')).toMatch(
      /Invitation to register.*Bounced [^<]*: Mailbox does not exist/s,
    );
    expect(row('gus.guardian@example.com')).toMatch(/Parent or guardian link.*Delivered \d/s);
    const announcement = row(world.users.eventAdmin.email);
    expect(announcement).toMatch(/<a href="[^"]+\/announcements\?show=\d+#shown">Announcement<\/a>/);
    expect(announcement).toContain('Team briefing');
    expect(announcement).toContain('Waiting to send');
    expect(row('blocked@example.org')).toMatch(/<td>Not sent: address blocked after a bounce<\/td>/);
    expect(res.body).not.toContain('code.reader@example.org');
    expect(res.body).not.toContain('elsewhere@example.org');
    expect(res.body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  it('filters by kind, state and address; pages 50 at a time', async () => {
    const kinds = await getPage(app, admin, `${base}/emails?kind=guardian_invitation`);
    expect(kinds.body).toContain('gus.guardian@example.com');
    expect(kinds.body).not.toContain('newcomer@example.org');
    expect(kinds.body).toContain('<option value="guardian_invitation" selected>');
    const bounced = await getPage(app, admin, `${base}/emails?state=bounced`);
    expect(bounced.body).toContain('<h2 id="sent-heading">1 email</h2>');
    const to = await getPage(app, admin, `${base}/emails?to=NEWCOMER`);
    expect(to.body).toContain('newcomer@example.org');
    expect(to.body).not.toContain('gus.guardian@example.com');
    await t.deps.db.execute(sql`
      INSERT INTO email_log (to_email, from_email, template, subject, status, event_id)
      SELECT 'bulk' || n || '@example.org', 'muster@example.org', 'registration_reminder', 'Reminder', 'sent', ${world.events.A.id}
        FROM generate_series(1, 55) AS n`);
    const first = await getPage(app, admin, `${base}/emails?kind=registration_reminder`);
    expect(first.body).toContain('<h2 id="sent-heading">55 emails</h2>');
    expect(first.body.match(/<tr>\n<td>/g)).toHaveLength(50);
    const older = /<a href="([^"]+)">Older emails<\/a>/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    const second = await getPage(app, admin, older);
    expect(second.body.match(/<tr>\n<td>/g)).toHaveLength(5);
    expect(second.body).toContain('bulk1@example.org');
    expect(second.body).not.toContain('Older emails');
  });

  it('an unknown kind or state is a 422 page with the message next to the field', async () => {
    const kind = await getPage(app, admin, `${base}/emails?kind=sign_in_code`);
    expect(kind.statusCode).toBe(422);
    expect(kind.body).toContain('<a href="#kind">Kind of email: choose one from the list</a>');
    expect(kind.body).not.toContain('code.reader@example.org');
    const state = await getPage(app, admin, `${base}/emails?state=lost`);
    expect(state.statusCode).toBe(422);
    expect(state.body).toContain('<a href="#state">State: choose one from the list</a>');
  });

  it('roles that may not read it get a 403 page and change nothing; the navigation offers it to managers only', async () => {
    const names = ['ops', 'limited', 'readOnly', 'safeguarding'] as const;
    const browsers = await Promise.all(names.map((n) => signedInBrowser(t.deps, world.users[n].id)));
    const before = await snapshotDb(t.deps);
    for (const [i, name] of names.entries()) {
      const who = browsers[i]!;
      const res = await getPage(app, who, `${base}/emails`);
      expect(res.statusCode, name).toBe(403);
      expect(res.body).not.toContain('newcomer@example.org');
      const overview = await getPage(app, who, base);
      expect(overview.body).not.toContain(`href="${base}/emails"`);
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
    const organizer = await signedInBrowser(t.deps, world.users.seriesOrganizer.id);
    expect((await getPage(app, organizer, `${base}/emails`)).statusCode).toBe(200);
  });
});
