/**
 * Email announcements over HTTP against the real database, with the job worker delivering to a
 * real local SMTP server: the guardians of minors get exactly one email per address (a guardian of
 * two children gets one), the preview shows the first recipient's values and stores nothing, the
 * delivery state per recipient follows the email log (sent, bounced through the email webhook,
 * suppressed afterwards), scheduling enqueues a job that sends once and never after a cancel.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardians } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { sendAnnouncementJob } from '../../src/modules/announcements/dispatch.service.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';
import { drain, SECRETS, signedRequest } from '../webhooks/helpers.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let smtp: TestSmtp;
let A: number;

const GINA = 'gina.guardian@example.com';
const GUS = 'gus.guardian@example.com';
const GAIL = 'gail.guardian@example.com';

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({ ...SECRETS, SMTP_URL: smtp.url });
  app = t.app;
  world = await buildWorld(t.deps);
  A = world.events.A.id;
  await t.deps.db.execute(sql`UPDATE events SET support_email = 'help@summit.example' WHERE id = ${A}`);
  // A second minor whose primary guardian is Gina again (spelled differently), plus Gail.
  await t.deps.db.transaction(async (tx) => {
    const mia = await addRegistration(tx, {
      eventId: A,
      email: 'mia.minor@example.com',
      firstName: 'Mia',
      lastName: 'Minor',
      preferredName: null,
      dateOfBirth: '2013-03-03',
      status: 'in_progress',
    });
    await tx.insert(guardians).values([
      { registrationId: mia.id, name: 'Gina Guardian', email: ' Gina.Guardian@Example.com', isPrimary: true },
      { registrationId: mia.id, name: 'Gail Guardian', email: GAIL, isPrimary: false },
    ]);
  });
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object, secret = world.secrets.eventAdmin) =>
  app.inject({
    method,
    url: `/api/v1/events/${A}${url}`,
    headers: bearer(secret),
    ...(payload ? { payload } : {}),
  });

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const received = (subject: string) => smtp.received.filter((m) => m.subject === subject);
const perAddress = (subject: string) =>
  Object.fromEntries(
    [...new Set(received(subject).flatMap((m) => m.to))].map((a) => [
      a,
      received(subject).filter((m) => m.to.includes(a)).length,
    ]),
  );

type Detail = {
  announcement: { delivery: Record<string, number> };
  recipients: { email: string; status: string }[];
};
const detail = async (id: number) => (await call('GET', `/announcements/${id}`)).json() as Detail;

const BODY =
  'Hello {{name}},\n\nThe bus for {{participant_names}} leaves at nine.\nSee https://summit.example/bus.\n\n{{event_name}} team';

describe('announcements', () => {
  it('previews with the first recipient’s values and stores nothing', async () => {
    const before = await snapshotDb(t.deps);
    const res = await call('POST', '/announcements/preview', {
      subject: 'Bus times',
      body: BODY,
      audience: 'guardians_all',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { preview } = res.json();
    expect(preview.recipient_count).toBe(3);
    expect(preview.recipient).toEqual({ email: GINA, name: 'Gina Guardian', kind: 'guardian' });
    expect(preview.subject).toBe(`${world.events.A.name}: Bus times`);
    expect(preview.text).toContain('Hello Gina Guardian,');
    expect(preview.text).toContain('The bus for Max and Mia leaves at nine.');
    expect(preview.text).toContain('help@summit.example');
    expect(preview.html).toContain('<a href="https://summit.example/bus">');
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('sends one email per guardian of a minor, even to a guardian of two children', async () => {
    const res = await call('POST', '/announcements', {
      subject: 'Bus times',
      body: BODY,
      audience: 'guardians_all',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { announcement } = res.json();
    // Sent by the job worker: the request only records it and enqueues the job.
    expect(announcement).toMatchObject({
      status: 'sending',
      recipient_count: 0,
      audience: 'guardians_all',
      send_at: null,
    });
    const subject = `${world.events.A.name}: Bus times`;
    await until(
      async () => received(subject).length,
      (n) => n >= 3,
      'three emails',
    );
    const d = await until(
      () => detail(announcement.id),
      (v) => v.announcement.delivery.sent === 3,
      'sent',
    );
    expect(d.announcement).toMatchObject({ status: 'sent', recipient_count: 3 });
    expect(perAddress(subject)).toEqual({ [GINA]: 1, [GUS]: 1, [GAIL]: 1 });
    expect(d.recipients.map((r) => [r.email, r.status])).toEqual([
      [GINA, 'sent'],
      [GUS, 'sent'],
      [GAIL, 'sent'],
    ]);
    const gina = received(subject).find((m) => m.to.includes(GINA))!;
    expect(gina.text).toContain('The bus for Max and Mia leaves at nine.');
    expect(gina.text).toContain('parent or guardian of Max and Mia');
    expect(gina.raw).toMatch(/^Reply-To: help@summit\.example/m);
    for (const part of [gina.text, gina.html]) {
      expect(part).not.toContain('/api/');
      expect(part).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    }
  }, 60_000);

  it('primary guardians only: one email to Gina', async () => {
    const res = await call('POST', '/announcements', {
      subject: 'Primary',
      body: 'Hi',
      audience: 'guardians_primary',
    });
    expect(res.statusCode, res.body).toBe(201);
    const subject = `${world.events.A.name}: Primary`;
    await until(
      async () => received(subject).length,
      (n) => n >= 1,
      'one email',
    );
    expect(perAddress(subject)).toEqual({ [GINA]: 1 });
  }, 60_000);

  it('shows a bounce from the email webhook, then the address as suppressed', async () => {
    const first = await call('POST', '/announcements', {
      subject: 'Bounce',
      body: 'Hi',
      audience: 'guardians_all',
    });
    const id = first.json().announcement.id;
    await until(
      () => detail(id),
      (v) => v.announcement.delivery.sent === 3,
      'sent',
    );
    const { rows } = await t.deps.database.pool.query<{ email_log_id: string }>(
      `SELECT email_log_id FROM announcement_recipients WHERE announcement_id = $1 AND email = $2`,
      [id, GUS],
    );
    const hook = await app.inject(
      signedRequest(
        'email',
        JSON.stringify({
          RecordType: 'Bounce',
          ID: 9001,
          Type: 'HardBounce',
          Name: 'Hard bounce',
          Description: 'Unknown user',
          Email: GUS,
          Metadata: { email_log_id: rows[0]!.email_log_id },
        }),
      ),
    );
    expect(hook.statusCode, hook.body).toBe(200);
    await drain(t);
    const bounced = await detail(id);
    expect(bounced.recipients.find((r) => r.email === GUS)!.status).toBe('bounced');
    expect(bounced.announcement.delivery).toMatchObject({ sent: 2, bounced: 1 });

    const again = await call('POST', '/announcements', {
      subject: 'After',
      body: 'Hi',
      audience: 'guardians_all',
    });
    const d = await until(
      () => detail(again.json().announcement.id),
      (v) => v.announcement.delivery.sent === 2,
      'sent',
    );
    expect(d.recipients.find((r) => r.email === GUS)!.status).toBe('suppressed');
    expect(d.announcement.delivery.suppressed).toBe(1);
    expect(perAddress(`${world.events.A.name}: After`)).toEqual({ [GINA]: 1, [GAIL]: 1 });
  }, 60_000);

  it('refuses bad input with 422 and stores nothing', async () => {
    const before = await snapshotDb(t.deps);
    const cases: [object, string][] = [
      [{ subject: ' ', body: 'x', audience: 'staff' }, 'Subject cannot be blank'],
      [{ subject: 'x', body: ' ', audience: 'staff' }, 'Message cannot be blank'],
      [
        { subject: 'x', body: 'Hi {{token}}', audience: 'staff' },
        'Message: unknown placeholder {{token}}; use {{name}}, {{participant_names}}, {{event_name}}',
      ],
      [
        { subject: 'News for {{first_name}}', body: 'x', audience: 'staff' },
        'Subject: unknown placeholder {{first_name}}; use {{name}}, {{participant_names}}, {{event_name}}',
      ],
      [
        { subject: 'x', body: 'x', audience: 'staff', send_at: '2020-01-01T00:00:00Z' },
        'send_at must be in the future',
      ],
      [
        { subject: 'x', body: 'x', audience: 'guardians_all', statuses: ['withdrawn'] },
        'Nobody in this audience has an email address',
      ],
    ];
    for (const [payload, error] of cases) {
      const res = await call('POST', '/announcements', payload);
      expect([res.statusCode, res.json()]).toEqual([422, { error }]);
    }
    const bad = await call('POST', '/announcements', { subject: 'x', body: 'x', audience: 'everyone' });
    expect(bad.statusCode).toBe(422);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('schedules: a job for that time, sent once by the handler, never after a cancel', async () => {
    const sendAt = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    const res = await call('POST', '/announcements', {
      subject: 'Tomorrow',
      body: 'Hi {{name}}',
      audience: 'staff',
      send_at: sendAt,
    });
    expect(res.statusCode, res.body).toBe(201);
    const a = res.json().announcement;
    expect(a).toMatchObject({ status: 'scheduled', recipient_count: 0, sent_at: null });
    expect(Date.parse(a.send_at)).toBe(Date.parse(sendAt));
    const jobs = await t.deps.database.pool.query<{ start_after: Date }>(
      `SELECT start_after FROM pgboss.job WHERE name = 'announcement-send' AND data->>'announcement_id' = $1`,
      [String(a.id)],
    );
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]!.start_after.getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    expect((await detail(a.id)).recipients).toEqual([]);

    await sendAnnouncementJob(t.deps, { announcement_id: a.id });
    const sent = await detail(a.id);
    expect(sent.announcement).toMatchObject({ status: 'sent' });
    const staff = sent.recipients.length;
    expect(staff).toBeGreaterThan(0);
    await sendAnnouncementJob(t.deps, { announcement_id: a.id });
    expect((await detail(a.id)).recipients).toHaveLength(staff);
    expect((await call('POST', `/announcements/${a.id}/cancel`)).statusCode).toBe(409);

    const other = await call('POST', '/announcements', {
      subject: 'Later',
      body: 'x',
      audience: 'staff',
      send_at: sendAt,
    });
    const otherId = other.json().announcement.id;
    const cancel = await call('POST', `/announcements/${otherId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().announcement.status).toBe('cancelled');
    await sendAnnouncementJob(t.deps, { announcement_id: otherId });
    expect((await detail(otherId)).recipients).toEqual([]);
  });

  it('the worker sends a scheduled announcement when it is due', async () => {
    const sendAt = new Date(Date.now() + 2000).toISOString();
    const res = await call('POST', '/announcements', {
      subject: 'Soon',
      body: 'Hi {{name}}',
      audience: 'staff',
      send_at: sendAt,
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await smtp.waitFor(
      (m) =>
        m.subject === `${world.events.A.name}: Soon` &&
        m.to.includes(world.users.eventAdmin.email.toLowerCase()),
      30_000,
    );
    expect(mail.text).toContain(`Hi ${world.users.eventAdmin.name}`);
    expect(mail.text).toContain('on the team for');
  }, 60_000);
});
