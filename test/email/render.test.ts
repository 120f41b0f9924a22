/**
 * Every participant- and guardian-facing email speaks plainly (issue 16 item 10): rendered with
 * Muster's wording and with an organiser's, in HTML and plain text, none has an API path, a token
 * outside its link, an ISO 8601 timestamp, a field name or an unfilled placeholder; dates are
 * written out in the event's time zone; the event's name, logo and support address are there. A
 * template added to the registry must be listed here as participant-facing or staff-only.
 */
import { describe, expect, it } from 'vitest';
import type { EventBrand } from '../../src/modules/email/layout.js';
import { renderTemplate, TEMPLATE_NAMES, type TemplateVars } from '../../src/modules/email/templates.js';
import { DEFAULT_WORDING } from '../../src/modules/email/wording.js';
import { expectPlain } from './plain.js';

const TOKEN = 'Zq3xT0kenAbCdEfGhIjKlMnOpQrStUvWxYz0123456';
const BASE = 'https://muster.test';
const event: EventBrand = {
  name: 'Summer Camp 2027',
  logo_url: 'https://muster.test/uploads/logo-3f2a.png',
  support_email: 'camp@events.muster.example',
  timezone: 'America/New_York',
};
// 2026-12-26T07:47:02Z is 02:47 in New York (Eastern Standard Time).
const EXPIRES = '2026-12-26T07:47:02.785000Z';
const WHEN = 'Saturday 26 December 2026 at 02:47 Eastern Standard Time';

/** Staff-facing templates (not checked for parent-friendliness here). */
const STAFF_ONLY = ['key_revoked', 'staff_invitation', 'webhook_disabled'];

type Case = {
  [K in keyof TemplateVars]: { name: K; vars: TemplateVars[K]; link?: string; when?: string };
}[keyof TemplateVars];

const CUSTOM = {
  subject: 'Action needed for {{event_name}}',
  body: 'Dear family,\n\nPlease act before {{expires_at}}:\n\n{{link}}\n\nThanks, the {{event_name}} team',
};

const cases: Case[] = [
  { name: 'sign_in_code', vars: { code: '482913', expires_minutes: 10, name: 'Ada' } },
  {
    name: 'invitation',
    vars: {
      event,
      first_name: 'Ada',
      accept_url: `${BASE}/register/accept?token=${TOKEN}`,
      expires_at: EXPIRES,
    },
    link: `${BASE}/register/accept?token=${TOKEN}`,
    when: WHEN,
  },
  {
    name: 'guardian_invitation',
    vars: {
      event,
      participant_name: 'Mia Minor',
      guardian_name: null,
      portal_url: `${BASE}/guardian/accept?token=${TOKEN}`,
      expires_at: EXPIRES,
    },
    link: `${BASE}/guardian/accept?token=${TOKEN}`,
    when: WHEN,
  },
  {
    name: 'guardian_invitation',
    vars: {
      event,
      wording: CUSTOM,
      participant_name: 'Mia Minor',
      guardian_name: 'Gina',
      portal_url: `${BASE}/guardian/accept?token=${TOKEN}`,
      expires_at: EXPIRES,
      reminder: true,
    },
    link: `${BASE}/guardian/accept?token=${TOKEN}`,
    when: WHEN,
  },
  {
    name: 'announcement',
    vars: {
      event_name: event.name,
      support_email: event.support_email,
      subject: 'Bus times',
      body: 'Hello,\n\nThe bus leaves at 9.',
      kind: 'guardian',
      participant_names: 'Max and Ada',
    },
  },
  {
    name: 'registration_reminder',
    vars: {
      event,
      first_name: 'Ada',
      continue_url: `${BASE}/register/42`,
      closes_at: '2026-12-26 07:47:02+00',
    },
    link: `${BASE}/register/42`,
    when: WHEN,
  },
];

describe('participant and guardian emails', () => {
  it('cover every template of the registry (or list it as staff-only)', () => {
    const covered = new Set([...cases.map((c) => c.name), ...STAFF_ONLY]);
    expect(TEMPLATE_NAMES.filter((n) => !covered.has(n))).toEqual([]);
  });

  it.each(cases.map((c, i) => [`${c.name} #${i}`, c] as const))('%s reads plainly', (_n, c) => {
    const mail = renderTemplate(c.name, c.vars as never);
    const links = c.link ? [c.link] : [];
    for (const part of [mail.subject, mail.text, mail.html]) expectPlain(part, { links, tokens: [TOKEN] });
    if (c.link) {
      expect(mail.text).toContain(c.link);
      expect(mail.html).toContain(`href="${c.link}"`);
    }
    if (c.when) {
      expect(mail.text).toContain(c.when);
      expect(mail.html).toContain(c.when);
      expect(mail.html).toContain(`<img src="${event.logo_url}" alt="${event.name}"`);
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain(event.name);
        expect(part).toContain(event.support_email);
      }
    }
  });

  it('an organiser’s wording keeps the facts and the link filled in by Muster', () => {
    const mail = renderTemplate('invitation', {
      event,
      wording: { subject: 'Come to {{event_name}}', body: 'Hi {{first_name}}! Deadline {{expires_at}}.' },
      first_name: null,
      accept_url: `${BASE}/register/accept?token=${TOKEN}`,
      expires_at: EXPIRES,
    });
    expect(mail.subject).toBe('Come to Summer Camp 2027');
    expect(mail.text).toContain(`Hi! Deadline ${WHEN}.`);
    // Without {{link}} the button follows the body.
    expect(mail.text).toContain(`Start your registration:\n${BASE}/register/accept?token=${TOKEN}`);
    expect(mail.html).toContain(`<a href="${BASE}/register/accept?token=${TOKEN}"`);
  });

  it('the default wording only uses placeholders its email knows', () => {
    for (const [name, wording] of Object.entries(DEFAULT_WORDING)) {
      expect(wording.body, name).toContain('{{link}}');
    }
  });

  it('escapes what people typed in HTML', () => {
    const mail = renderTemplate('guardian_invitation', {
      event: { ...event, name: 'Camp <b>&</b>' },
      participant_name: '<script>x</script>',
      portal_url: `${BASE}/guardian/accept?token=${TOKEN}`,
      expires_at: EXPIRES,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).not.toContain('<b>&</b>');
  });
});

describe('emails queued before this change', () => {
  it('still render from their old variables (event name only), in plain words', () => {
    const mail = renderTemplate('invitation', {
      event_name: 'Old Camp',
      first_name: 'Ada',
      accept_url: `${BASE}/register/accept?token=${TOKEN}`,
      api_url: `${BASE}/api/v1/registrations`,
      token: TOKEN,
      expires_at: EXPIRES,
    } as never);
    expect(mail.subject).toBe("You're invited to register for Old Camp");
    expect(mail.text).toContain('Saturday 26 December 2026 at 07:47 Coordinated Universal Time');
    for (const part of [mail.text, mail.html])
      expectPlain(part, { links: [`${BASE}/register/accept?token=${TOKEN}`], tokens: [TOKEN] });
  });
});
