/**
 * POST /webhooks/email effects (docs/decisions.md "Messaging"), with the job worker running: delivery, open and
 * bounce events update the email log row (found by the `X-PM-Metadata-email_log_id` header Muster
 * sends, or by provider message id); a hard bounce suppresses the address, so later emails to it
 * are logged `suppressed` and never sent; GET /email_log shows all of it to a global admin.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailLog, users } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { queueEmail, sendQueuedEmail } from '../../src/modules/email/email.service.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { buildWorld, type World } from '../support/world.js';
import { drain, SECRETS, signedRequest } from './helpers.js';

let t: TestApp;
let smtp: TestSmtp;
let world: World;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({ ...SECRETS, SMTP_URL: smtp.url });
  world = await buildWorld(t.deps);
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const KEY_VARS = {
  key_name: 'CRM sync',
  key_kind: 'event API key',
  revoked_at: '2026-11-22T10:00:00Z',
  scope: 'Demo Event',
};

async function logRow(id: number) {
  const [row] = await t.deps.db.select().from(emailLog).where(eq(emailLog.id, id));
  return row!;
}

async function sendMail(to: string): Promise<number> {
  const id = await t.deps.db.transaction((tx) =>
    queueEmail(t.deps, tx, { to, template: 'key_revoked', vars: KEY_VARS }),
  );
  await smtp.waitFor((m) => m.to.includes(to.toLowerCase()), 30_000);
  for (let i = 0; i < 100 && (await logRow(id)).status !== 'sent'; i++)
    await new Promise((r) => setTimeout(r, 100));
  return id;
}

async function post(body: Record<string, unknown>) {
  const res = await t.app.inject(signedRequest('email', JSON.stringify(body)));
  expect(res.statusCode, res.body).toBe(200);
  return drain(t);
}

async function emailSendJobs(): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'email-send'`,
  );
  return Number(res.rows[0]!.n);
}

describe('email provider events', () => {
  it('tags every message with its log id, then records delivery and open (never downgraded)', async () => {
    const id = await sendMail('ada@example.org');
    const mail = smtp.received.find((m) => m.to.includes('ada@example.org'))!;
    expect(mail.raw.toLowerCase()).toContain(`x-pm-metadata-email_log_id: ${id}`);

    await post({
      RecordType: 'Delivery',
      MessageID: 'pm-1',
      Recipient: 'ada@example.org',
      DeliveredAt: '2026-11-24T10:00:01.5Z',
      Metadata: { email_log_id: String(id) },
    });
    expect(await logRow(id)).toMatchObject({ status: 'delivered', deliveredAt: '2026-11-24 10:00:01.5+00' });

    await post({
      RecordType: 'Open',
      MessageID: 'pm-1',
      Recipient: 'ada@example.org',
      ReceivedAt: '2026-11-24T10:05:00Z',
      FirstOpen: true,
      Metadata: { email_log_id: String(id) },
    });
    expect(await logRow(id)).toMatchObject({ status: 'opened', openedAt: '2026-11-24 10:05:00+00' });

    // A late delivery event does not move an opened email back.
    await post({
      RecordType: 'Delivery',
      MessageID: 'pm-1',
      Recipient: 'ada@example.org',
      DeliveredAt: '2026-11-24T10:09:00Z',
      Metadata: { email_log_id: String(id) },
    });
    expect(await logRow(id)).toMatchObject({ status: 'opened', deliveredAt: '2026-11-24 10:00:01.5+00' });
  }, 60_000);

  it('matches by provider message id when there is no metadata; a soft bounce does not suppress', async () => {
    const id = await sendMail('soft@example.org');
    const messageId = (await logRow(id)).providerMessageId!.replace(/^<|>$/g, '');
    const outcomes = await post({
      RecordType: 'Bounce',
      ID: 42,
      Type: 'SoftBounce',
      Name: 'Soft bounce',
      Description: 'Mailbox full',
      MessageID: messageId,
      Email: 'soft@example.org',
      BouncedAt: '2026-11-24T11:00:00Z',
    });
    expect(outcomes['bounce:42']).toBe('bounced');
    expect(await logRow(id)).toMatchObject({
      status: 'bounced',
      error: 'Soft bounce: Mailbox full',
      bouncedAt: '2026-11-24 11:00:00+00',
    });
    const again = await t.deps.db.transaction((tx) =>
      queueEmail(t.deps, tx, { to: 'soft@example.org', template: 'key_revoked', vars: KEY_VARS }),
    );
    await smtp.waitFor(
      (m) =>
        m.to.includes('soft@example.org') &&
        smtp.received.filter((x) => x.to.includes('soft@example.org')).length === 2,
      30_000,
    );
    for (let i = 0; i < 100 && (await logRow(again)).status !== 'sent'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await logRow(again)).status).toBe('sent');
  }, 60_000);

  it('an unknown message changes nothing', async () => {
    const before = await t.deps.db.select().from(emailLog).orderBy(emailLog.id);
    const outcomes = await post({
      RecordType: 'Delivery',
      MessageID: 'no-such-message',
      Recipient: 'x@example.org',
    });
    expect(Object.values(outcomes)).toContain('unmatched');
    expect(await t.deps.db.select().from(emailLog).orderBy(emailLog.id)).toEqual(before);
  });

  it('a hard bounce flags the address: later sends are skipped and logged suppressed', async () => {
    const address = world.users.participant.email;
    const id = await sendMail(address);
    const queuedBefore = await t.deps.db.transaction(async (tx) => {
      // Queued, not yet sent when the bounce arrives (the worker is bypassed for this row).
      const [row] = await tx
        .insert(emailLog)
        .values({
          toEmail: address,
          fromEmail: 'no-reply@muster.example',
          template: 'key_revoked',
          subject: 'x',
        })
        .returning();
      return row!.id;
    });
    await post({
      RecordType: 'Bounce',
      ID: 43,
      Type: 'HardBounce',
      TypeCode: 1,
      Name: 'Hard bounce',
      Description: 'Unknown user',
      Email: address.toUpperCase(),
      Metadata: { email_log_id: id },
    });
    expect(await logRow(id)).toMatchObject({ status: 'bounced', error: 'Hard bounce: Unknown user' });
    const [user] = await t.deps.db.select().from(users).where(eq(users.id, world.users.participant.id));
    expect(user!.emailBouncedAt).not.toBeNull();

    const jobs = await emailSendJobs();
    const later = await t.deps.db.transaction((tx) =>
      queueEmail(t.deps, tx, { to: address, template: 'key_revoked', vars: KEY_VARS }),
    );
    expect(await logRow(later)).toMatchObject({ status: 'suppressed' });
    expect(await emailSendJobs()).toBe(jobs);

    const sent = smtp.received.length;
    await sendQueuedEmail(
      t.deps,
      {
        email_log_id: queuedBefore,
        sealed: t.deps.sealer.seal({
          to: address,
          from: 'no-reply@muster.example',
          template: 'key_revoked',
          vars: KEY_VARS,
        }),
      },
      { retryCount: 0, retryLimit: 3 },
    );
    expect((await logRow(queuedBefore)).status).toBe('suppressed');
    expect(smtp.received.length).toBe(sent);

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/email_log?email=${encodeURIComponent(address)}`,
      headers: bearer(world.secrets.admin),
    });
    expect(res.statusCode).toBe(200);
    const entries = res.json().email_log as Record<string, unknown>[];
    expect(entries.map((e) => [e.id, e.status, e.address_suppressed])).toEqual([
      [later, 'suppressed', true],
      [queuedBefore, 'suppressed', true],
      [id, 'bounced', true],
    ]);
    expect(entries[2]).toMatchObject({
      error: 'Hard bounce: Unknown user',
      to_email: address,
      template: 'key_revoked',
    });
    expect(entries[2]!.bounced_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  }, 60_000);

  it('GET /email_log filters by status and pages with before_id', async () => {
    const get = (q: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/email_log${q}`, headers: bearer(world.secrets.admin) });
    const bounced = (await get('?status=bounced')).json();
    expect(bounced.email_log.every((e: { status: string }) => e.status === 'bounced')).toBe(true);
    expect(bounced.email_log.length).toBe(2);
    const page1 = (await get('?limit=2')).json();
    expect(page1.has_more).toBe(true);
    const page2 = (await get(`?limit=2&before_id=${page1.email_log[1].id}`)).json();
    expect(page2.email_log[0].id).toBeLessThan(page1.email_log[1].id);
    expect((await get('?limit=0')).statusCode).toBe(422);
  });

  it('an out-of-range before_id or event_id is a 422 with {error}, not a database error', async () => {
    for (const query of ['email_log?before_id', 'email_suppressions?before_id', 'email_log?event_id']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/${query}=99999999999999999999`,
        headers: bearer(world.secrets.admin),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: expect.stringContaining(query.split('?')[1]!) });
    }
  });
});

describe('lifting a suppression', () => {
  it('lists the suppressed address, lifts it (audited), and the address receives email again', async () => {
    const address = world.users.participant.email.toLowerCase();
    const admin = bearer(world.secrets.admin);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/email_suppressions?email=${encodeURIComponent(address.toUpperCase())}`,
      headers: admin,
    });
    expect(list.statusCode, list.body).toBe(200);
    const [entry] = list.json().email_suppressions as Record<string, unknown>[];
    expect(entry).toMatchObject({ email: address, reason: 'HardBounce' });

    const lifted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/email_suppressions/${encodeURIComponent(address.toUpperCase())}`,
      headers: admin,
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toEqual({ success: true, email: address });
    const audit = await t.deps.db.execute<{ target_id: string; metadata: Record<string, unknown> }>(
      sql`SELECT target_id, metadata FROM audit_log WHERE action = 'email_suppressions.delete'`,
    );
    expect(audit.rows).toEqual([{ target_id: String(entry!.id), metadata: { reason: entry!.reason } }]);

    // Sent again (not `suppressed`), and delivered by the worker to the SMTP server.
    const id = await sendMail(address);
    expect((await logRow(id)).status).toBe('sent');

    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/email_suppressions/${encodeURIComponent(address)}`,
      headers: admin,
    });
    expect([again.statusCode, again.json()]).toEqual([404, { error: 'Suppression not found' }]);
  }, 60_000);
});
