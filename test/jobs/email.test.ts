/**
 * Email pipeline: queued in the writer's transaction, delivered by the worker to a
 * real SMTP server, retried after a transient refusal, recorded in email_log, and the one-time code
 * never stored in plain text.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailLog } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { queueEmail } from '../../src/modules/email/email.service.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';

let t: TestApp;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Muster <no-reply@muster.example>' });
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function dumpText(): Promise<string> {
  const res = await t.deps.db.execute<{ d: string }>(
    sql`SELECT string_agg(x::text, E'\n') AS d FROM (SELECT to_jsonb(j) AS x FROM pgboss.job j UNION ALL SELECT to_jsonb(a) FROM pgboss.archive a UNION ALL SELECT to_jsonb(e) FROM email_log e) s`,
  );
  return res.rows[0]?.d ?? '';
}

describe('email delivery', () => {
  it('sends nothing when the writing transaction rolls back', async () => {
    await expect(
      t.deps.db.transaction(async (tx) => {
        await queueEmail(t.deps, tx, {
          to: 'rollback@example.org',
          template: 'sign_in_code',
          vars: { code: '111111', expires_minutes: 10 },
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await t.deps.db
      .select()
      .from(emailLog)
      .where(sql`${emailLog.toEmail} = 'rollback@example.org'`);
    expect(rows).toEqual([]);
  });

  it('delivers a committed email over SMTP, records it, and keeps the code out of the database', async () => {
    const id = await t.deps.db.transaction((tx) =>
      queueEmail(t.deps, tx, {
        to: 'ada@example.org',
        template: 'sign_in_code',
        vars: { code: '482913', expires_minutes: 10, name: 'Ada' },
      }),
    );
    const mail = await smtp.waitFor((m) => m.to.includes('ada@example.org'));
    expect(mail.subject).toBe('Your Muster sign-in code: 482913');
    expect(mail.text).toContain('Your sign-in code is 482913');
    expect(mail.html).toContain('482913');
    expect(mail.from).toBe('no-reply@muster.example');
    for (let i = 0; i < 50; i++) {
      const [row] = await t.deps.db.select().from(emailLog).where(sql`${emailLog.id} = ${id}`);
      if (row?.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [row] = await t.deps.db.select().from(emailLog).where(sql`${emailLog.id} = ${id}`);
    expect(row).toMatchObject({
      status: 'sent',
      template: 'sign_in_code',
      subject: 'Your Muster sign-in code',
    });
    expect(row!.providerMessageId).toBeTruthy();
    expect(await dumpText()).not.toContain('482913');
  });

  it('retries after a transient SMTP refusal and sends exactly once', async () => {
    smtp.failNext(1);
    await t.deps.db.transaction((tx) =>
      queueEmail(t.deps, tx, {
        to: 'retry@example.org',
        template: 'key_revoked',
        vars: {
          key_name: 'CRM sync',
          key_kind: 'event API key',
          revoked_at: '2026-11-22T10:00:00Z',
          scope: 'Demo Event',
        },
      }),
    );
    await smtp.waitFor((m) => m.to.includes('retry@example.org'), 40_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received.filter((m) => m.to.includes('retry@example.org'))).toHaveLength(1);
  }, 60_000);

  it('sends a burst in batches over a bounded number of SMTP connections, each email once', async () => {
    const vars = { key_name: 'k', key_kind: 'event API key', revoked_at: '2026-11-22T10:00:00Z', scope: 'x' };
    const to = Array.from({ length: 40 }, (_, i) => `burst${i}@example.org`);
    await t.deps.db.transaction(async (tx) => {
      for (const address of to) await queueEmail(t.deps, tx, { to: address, template: 'key_revoked', vars });
    });
    for (const address of to) await smtp.waitFor((m) => m.to.includes(address), 40_000);
    expect(smtp.received.filter((m) => m.to.some((a) => a.startsWith('burst'))).length).toBe(40);
    // Pooled connections shared by the worker's parallel sends: more than one, never more than five.
    expect(smtp.maxConnections).toBeGreaterThan(1);
    expect(smtp.maxConnections).toBeLessThanOrEqual(5);
    // The SMTP server holds a message before the worker records it as sent: wait for the log to catch up.
    const sentCount = async () =>
      (
        await t.deps.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM email_log WHERE to_email LIKE 'burst%' AND status = 'sent'`,
        )
      ).rows[0]!.n;
    for (let i = 0; i < 100 && (await sentCount()) < 40; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await sentCount()).toBe(40);
  }, 60_000);
});
