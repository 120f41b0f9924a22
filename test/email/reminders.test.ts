/**
 * Reminder emails (issue 16 item 9; docs/email.md "Reminders") over a real local SMTP server: a
 * guardian invitation unanswered after 3 days is sent again with a fresh working link, an expired
 * one is renewed, participants still `invited`/`in_progress` are reminded 7 and 2 days before
 * registration closes, an event with reminders switched off (PATCH email_reminders_enabled) gets
 * none, each reminder is audited, and running the job a second time sends nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestSecret } from '../../src/lib/secrets.js';
import { sendReminders } from '../../src/modules/email/reminders.service.js';
import {
  BASE_URL,
  call,
  emailsSettled,
  P,
  type RegHarness,
  startRegHarness,
  tokenIn,
} from '../registration/harness.js';
import { addRegistration } from '../support/world.js';
import { expectPlain } from './plain.js';

let h: RegHarness;
const ids = { resend: 0, renew: 0, fresh: 0, p7: 0, p2: 0, off: 0, noAccount: 0, done: 0 };

async function q<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await h.t.deps.database.pool.query<T>(text, params)).rows;
}

async function user(email: string): Promise<number> {
  const [row] = await q<{ id: number }>(`INSERT INTO users (email, name) VALUES ($1, $1) RETURNING id`, [
    email,
  ]);
  return row!.id;
}

beforeAll(async () => {
  h = await startRegHarness();
  const { A, B, C } = h.world.events;
  // A closes in 5 days (the 7-day reminder is due), B in 1 day (the 2-day one), C in 5 days but
  // its reminders are switched off below over HTTP.
  await q(
    `UPDATE events SET registration_open_at = now() - interval '30 days',
                             registration_close_at = now() + interval '5 days', timezone = 'Europe/Berlin'
            WHERE id = ANY($1)`,
    [[A.id, C.id]],
  );
  await q(`UPDATE events SET registration_close_at = now() + interval '1 day' WHERE id = $1`, [B.id]);
  const accounts: Record<string, number> = {};
  for (const email of ['paula.seven', 'tim.two', 'olga.off', 'dora.done'])
    accounts[email] = await user(`${email}@example.org`);
  // (One connection on PGlite: no pool queries inside the transaction.)
  await h.t.deps.db.transaction(async (tx) => {
    const reg = (
      eventId: number,
      email: string,
      status: 'in_progress' | 'invited' | 'complete',
      userId?: number,
    ) =>
      addRegistration(tx, {
        eventId,
        email,
        firstName: email.split('.')[0]!.replace(/^./, (c) => c.toUpperCase()),
        lastName: 'Example',
        preferredName: null,
        dateOfBirth: '1990-01-01',
        status,
        ...(userId ? { userId } : {}),
      });
    ids.p7 = (await reg(A.id, 'paula.seven@example.org', 'in_progress', accounts['paula.seven'])).id;
    ids.p2 = (await reg(B.id, 'tim.two@example.org', 'invited', accounts['tim.two'])).id;
    ids.off = (await reg(C.id, 'olga.off@example.org', 'in_progress', accounts['olga.off'])).id;
    ids.noAccount = (await reg(A.id, 'nina.noaccount@example.org', 'invited')).id;
    ids.done = (await reg(A.id, 'dora.done@example.org', 'complete', accounts['dora.done'])).id;
    const minor = await reg(A.id, 'mia.minor@example.org', 'in_progress');
    await tx.execute(sql`UPDATE registrations SET status = 'awaiting_guardian' WHERE id = ${minor.id}`);
    const g = await tx.execute<{ id: number; email: string }>(sql`
      INSERT INTO guardians (registration_id, name, email, status, invite_token_sent_at, invite_expires_at,
                             invite_token_digest, invited_via_email)
      VALUES (${minor.id}, 'Rosa Resend', 'rosa.resend@example.org', 'invited', now() - interval '4 days',
              now() + interval '3 days', 'digest-rosa', 'rosa.resend@example.org'),
             (${minor.id}, 'Rene Renew', 'rene.renew@example.org', 'accepted', now() - interval '8 days',
              now() - interval '1 day', 'digest-rene', 'rene.renew@example.org'),
             (${minor.id}, 'Fred Fresh', 'fred.fresh@example.org', 'invited', now() - interval '1 day',
              now() + interval '6 days', 'digest-fred', 'fred.fresh@example.org')
      RETURNING id, email`);
    [ids.resend, ids.renew, ids.fresh] = g.rows.map((r) => r.id) as [number, number, number];
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const sentTo = (email: string) => h.smtp.received.filter((m) => m.to.includes(email));

describe('reminder job', () => {
  it('the per-event switch is a field of the event update route', async () => {
    const { C } = h.world.events;
    const res = await call(
      h.app,
      'PATCH',
      `${P}/series/${h.world.series.S2.id}/events/${C.id}`,
      h.world.secrets.admin,
      {
        event: { email_reminders_enabled: false },
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().event.email_reminders_enabled).toBe(false);
    const bad = await call(
      h.app,
      'PATCH',
      `${P}/series/${h.world.series.S2.id}/events/${C.id}`,
      h.world.secrets.admin,
      {
        event: { email_reminders_enabled: 'no' },
      },
    );
    expect(bad.statusCode).toBe(422);
  });

  it('sends each due reminder once, in plain words, with a working link', async () => {
    expect(await sendReminders(h.t.deps)).toEqual({ guardians: 2, participants: 2 });
    await emailsSettled(h);
    const rosa = await h.smtp.waitFor((m) => m.to.includes('rosa.resend@example.org'));
    expect(rosa.subject).toBe(
      "Reminder: Mia Example's registration for Summit Alpha needs a parent or guardian",
    );
    const token = tokenIn(rosa);
    expect(rosa.text).toContain(`${BASE_URL}/guardian/accept?token=${token}`);
    const [row] = await q<{ invite_token_digest: string; days: number }>(
      `SELECT invite_token_digest, round(extract(epoch FROM invite_expires_at - now()) / 86400)::int AS days
         FROM guardians WHERE id = $1`,
      [ids.resend],
    );
    expect(row).toEqual({ invite_token_digest: digestSecret(token), days: 7 });
    const portal = await call(h.app, 'GET', `${P}/guardian/${token}`);
    expect(portal.statusCode).toBe(200);

    const rene = await h.smtp.waitFor((m) => m.to.includes('rene.renew@example.org'));
    const [renewed] = await q<{ live: boolean }>(
      `SELECT invite_expires_at > now() AS live FROM guardians WHERE id = $1`,
      [ids.renew],
    );
    expect(renewed!.live).toBe(true);

    const paula = await h.smtp.waitFor((m) => m.to.includes('paula.seven@example.org'));
    expect(paula.subject).toBe('Reminder: finish your registration for Summit Alpha');
    expect(paula.text).toContain(`${BASE_URL}/register/${ids.p7}`);
    // Written out in the event's zone (Europe/Berlin), never an ISO timestamp.
    expect(paula.text).toMatch(
      /Registration closes on \w+day \d{1,2} \w+ \d{4} at \d{2}:\d{2} Central European (Standard|Summer) Time\./,
    );
    const tim = await h.smtp.waitFor((m) => m.to.includes('tim.two@example.org'));
    expect(tim.text).toContain(`${BASE_URL}/register/${ids.p2}`);

    for (const mail of [rosa, rene, paula, tim]) {
      const links = [...mail.text.matchAll(/https:\/\/muster\.test\/\S+/g)].map((m) => m[0]);
      for (const part of [mail.text, mail.html]) expectPlain(part, { links, tokens: [] });
    }
    expect(sentTo('fred.fresh@example.org')).toEqual([]);
    expect(sentTo('olga.off@example.org')).toEqual([]);
    expect(sentTo('nina.noaccount@example.org')).toEqual([]);
    expect(sentTo('dora.done@example.org')).toEqual([]);

    const audit = await q<{ target_type: string; target_id: string; kind: string; credential_kind: string }>(
      `SELECT target_type, target_id, metadata->>'kind' AS kind, credential_kind FROM audit_log
        WHERE action = 'email.reminder' ORDER BY id`,
    );
    expect(audit).toEqual([
      {
        target_type: 'guardian',
        target_id: String(ids.resend),
        kind: 'guardian_resend',
        credential_kind: 'job',
      },
      {
        target_type: 'guardian',
        target_id: String(ids.renew),
        kind: 'guardian_renew',
        credential_kind: 'job',
      },
      { target_type: 'registration', target_id: String(ids.p7), kind: 'close_7d', credential_kind: 'job' },
      { target_type: 'registration', target_id: String(ids.p2), kind: 'close_2d', credential_kind: 'job' },
    ]);
  });

  it('run a second time, sends nothing', async () => {
    const before = h.smtp.received.length;
    const logged = await q<{ n: number }>(`SELECT count(*)::int AS n FROM email_log`);
    expect(await sendReminders(h.t.deps)).toEqual({ guardians: 0, participants: 0 });
    await emailsSettled(h);
    expect(await q<{ n: number }>(`SELECT count(*)::int AS n FROM email_log`)).toEqual(logged);
    expect(h.smtp.received.length).toBe(before);
    const rows = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM email_reminders WHERE email_log_id IS NOT NULL`,
    );
    expect(rows[0]!.n).toBe(4);
  });

  it('sends the 2-day reminder once the window reaches it, and again nothing after', async () => {
    await q(`UPDATE events SET registration_close_at = now() + interval '1 day' WHERE id = $1`, [
      h.world.events.A.id,
    ]);
    expect(await sendReminders(h.t.deps)).toEqual({ guardians: 0, participants: 1 });
    expect(await sendReminders(h.t.deps)).toEqual({ guardians: 0, participants: 0 });
    await emailsSettled(h);
    expect(sentTo('paula.seven@example.org')).toHaveLength(2);
  });

  it('is scheduled hourly by the worker', async () => {
    const schedules = (await h.t.deps.jobs.boss.getSchedules()) as { name: string; cron: string }[];
    expect(schedules.filter((s) => s.name === 'email-reminders')).toEqual([
      expect.objectContaining({ name: 'email-reminders', cron: '41 * * * *' }),
    ]);
  });
});
