/**
 * Editable email wording over HTTP (issue 16 item 10; docs/email.md "Editable wording"): list, read,
 * save, preview (saved and draft), reset, with exact statuses and errors; the saved wording is what
 * the next real invitation email (over SMTP) says, with the link and the facts still Muster's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BASE_URL,
  call,
  emailsSettled,
  P,
  type RegHarness,
  startRegHarness,
  tokenIn,
} from '../registration/harness.js';
import { expectPlain } from './plain.js';

let h: RegHarness;
let url: string;
let admin: string;

beforeAll(async () => {
  h = await startRegHarness();
  url = `${P}/events/${h.world.events.A.id}/email_templates`;
  admin = h.world.secrets.eventAdmin!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const audits = async () =>
  (
    await h.t.deps.database.pool.query<{ action: string; template: string }>(
      `SELECT action, metadata->>'template' AS template FROM audit_log WHERE action LIKE 'email_templates.%' ORDER BY id`,
    )
  ).rows;

describe('email templates API', () => {
  it('lists the three editable emails with Muster’s wording', async () => {
    const res = await call(h.app, 'GET', url, admin);
    expect(res.statusCode).toBe(200);
    const list = res.json().email_templates as {
      template: string;
      customized: boolean;
      placeholders: string[];
    }[];
    expect(list.map((t) => [t.template, t.customized])).toEqual([
      ['invitation', false],
      ['guardian_invitation', false],
      ['registration_reminder', false],
    ]);
    expect(list[0]!.placeholders).toEqual([
      'event_name',
      'first_name',
      'expires_at',
      'support_email',
      'link',
    ]);
  });

  it('refuses wording it cannot send, naming the problem (422), and saves nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ subject: '', body: 'x' }, 422, 'subject cannot be blank'],
      [{ subject: 'x', body: '  ' }, 422, 'body cannot be blank'],
      [{ subject: 'Hi {{link}}', body: 'x' }, 422, 'The subject cannot contain {{link}}'],
      [{ subject: 'a\nb', body: 'x' }, 422, 'subject must be a single line'],
      [{ subject: 'x'.repeat(201), body: 'x' }, 422, 'subject must be at most 200 characters'],
      [
        { subject: 'Hi', body: 'Use {{ token }}' },
        422,
        'Unknown placeholder {{token}}; this email knows {{event_name}}, {{first_name}}, {{expires_at}}, {{support_email}}, {{link}}',
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await call(h.app, 'PUT', `${url}/invitation`, admin, body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([status, { error }]);
    }
    const unknownField = await call(h.app, 'PUT', `${url}/invitation`, admin, {
      subject: 'a',
      body: 'b',
      html: 'c',
    });
    expect(unknownField.statusCode).toBe(422);
    const missing = await call(h.app, 'PUT', `${url}/invitation`, admin, { subject: 'a' });
    expect(missing.statusCode).toBe(422);
    const unknown = await call(h.app, 'PUT', `${url}/newsletter`, admin, { subject: 'a', body: 'b' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: 'Email template not found' }]);
    expect(await audits()).toEqual([]);
  });

  it('previews a draft with the event’s real details and an example link; nothing is saved', async () => {
    const res = await call(h.app, 'POST', `${url}/invitation/preview`, admin, {
      subject: 'Join us at {{event_name}}',
      body: 'Hi {{first_name}},\n\nSign up before {{expires_at}}.\n\n{{link}}',
    });
    expect(res.statusCode).toBe(200);
    const { preview } = res.json();
    expect(preview.subject).toBe('Join us at Summit Alpha');
    expect(preview.text).toMatch(/^Hi Alex,\n\nSign up before \w+day \d{1,2} \w+ \d{4} at \d{2}:\d{2} /);
    expect(preview.text).toContain(`Start your registration:\n${BASE_URL}/register/accept?token=example`);
    expect(preview.html).toContain('<title>Join us at Summit Alpha</title>');
    const half = await call(h.app, 'POST', `${url}/invitation/preview`, admin, { subject: 'x' });
    expect([half.statusCode, half.json()]).toEqual([422, { error: 'A draft needs both subject and body' }]);
    const saved = await call(h.app, 'GET', `${url}/invitation`, admin);
    expect(saved.json().email_template.customized).toBe(false);
  });

  it('saves wording (200), shows it, uses it in the next invitation, and resets it', async () => {
    const put = await call(h.app, 'PUT', `${url}/invitation`, admin, {
      subject: '  Your place at {{event_name}}  ',
      body: 'Hello {{first_name}},\r\n\r\nWe kept a place for you.\r\n\r\n{{link}}\r\n\r\nAnswer by {{expires_at}}.',
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().email_template).toMatchObject({
      template: 'invitation',
      subject: 'Your place at {{event_name}}',
      body: 'Hello {{first_name}},\n\nWe kept a place for you.\n\n{{link}}\n\nAnswer by {{expires_at}}.',
      customized: true,
      updated_at: expect.stringMatching(/Z$/),
    });
    const preview = await call(h.app, 'POST', `${url}/invitation/preview`, admin, {});
    expect(preview.json().preview.subject).toBe('Your place at Summit Alpha');

    const invite = await call(h.app, 'POST', `${P}/events/${h.world.events.A.id}/participants`, admin, {
      email: 'wendy.wording@example.org',
      first_name: 'Wendy',
    });
    expect(invite.statusCode).toBe(201);
    const mail = await h.smtp.waitFor((m) => m.to.includes('wendy.wording@example.org'));
    expect(mail.subject).toBe('Your place at Summit Alpha');
    expect(mail.text).toMatch(/^Hello Wendy,\n\nWe kept a place for you\.\n\nStart your registration:\n/);
    const token = tokenIn(mail);
    const link = `${BASE_URL}/register/accept?token=${token}`;
    for (const part of [mail.text, mail.html]) expectPlain(part, { links: [link], tokens: [token] });

    // Another event keeps Muster's wording.
    const other = await call(
      h.app,
      'GET',
      `${P}/events/${h.world.events.B.id}/email_templates/invitation`,
      h.world.secrets.seriesOwner,
    );
    expect(other.json().email_template.customized).toBe(false);

    const reset = await call(h.app, 'DELETE', `${url}/invitation`, admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().email_template).toMatchObject({ customized: false, updated_at: null });
    const again = await call(h.app, 'DELETE', `${url}/invitation`, admin);
    expect(again.statusCode).toBe(200);
    expect(await audits()).toEqual([
      { action: 'email_templates.update', template: 'invitation' },
      { action: 'email_templates.reset', template: 'invitation' },
    ]);
    await emailsSettled(h);
  });
});
