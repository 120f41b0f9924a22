/**
 * Participant and guardian emails in the recipient's language (issue 28, docs/languages.md
 * "Emails"): Muster's default wording, button, reminder prefix and footer from the catalog, dates
 * written by Intl (dateStyle full, time, long zone name) in the event's time zone; the organiser's
 * translation when they wrote one, else their own wording.
 */
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/modules/email/templates.js';

const event = {
  name: 'Campamento',
  logo_url: null,
  support_email: 'help@example.org',
  timezone: 'America/New_York',
};
const AT = '2026-12-26T07:47:00.000Z';
/** Words only English text has: a translated email holds none of them. */
const ENGLISH = /\b(the|you|your|this|and|Hello|Reminder|Questions|registration|until|invited)\b/;

describe('emails in the recipient language', () => {
  it('a Spanish guardian reads the invitation, the button, the date and the footer in Spanish', () => {
    const mail = renderTemplate('guardian_invitation', {
      event,
      lang: 'es',
      participant_name: 'Max Minor',
      guardian_name: 'Gail',
      portal_url: 'https://muster.example/guardian/accept?token=x',
      expires_at: AT,
      reminder: true,
    });
    expect(mail.text).toContain('sábado, 26 de diciembre de 2026, 02:47');
    expect(mail.text).toMatch(/\(hora estándar (del este|oriental)[^)]*\)/);
    expect(mail.subject).toMatch(/^Recordatorio/);
    for (const part of [mail.subject, mail.text, mail.html.replace(/<[^>]*>/g, ' ')])
      expect(part.replace(/https?:\S+/g, '')).not.toMatch(ENGLISH);
    expect(mail.html).toContain('lang="es"');
  });

  it.each(['es', 'de'])('every participant email has no English left in %s', (lang) => {
    const mails = [
      renderTemplate('invitation', {
        event,
        lang,
        first_name: 'Max',
        accept_url: 'https://x/a',
        expires_at: AT,
      }),
      renderTemplate('registration_reminder', {
        event,
        lang,
        first_name: 'Max',
        continue_url: 'https://x/c',
        closes_at: AT,
      }),
      renderTemplate('sign_in_code', { code: '123456', expires_minutes: 10, name: 'Max', lang }),
    ];
    for (const m of mails)
      for (const part of [m.subject, m.text, m.html.replace(/<[^>]*>/g, ' ')])
        expect(part.replace(/https?:\S+/g, '')).not.toMatch(ENGLISH);
  });

  it('without a chosen language the event default is used, then English', () => {
    const es = renderTemplate('invitation', {
      event,
      default_language: 'es',
      accept_url: 'https://x/a',
      expires_at: AT,
    });
    expect(es.text).toContain('sábado, 26 de diciembre de 2026');
    const en = renderTemplate('invitation', { event, accept_url: 'https://x/a', expires_at: AT });
    expect(en.text).toContain('Saturday');
  });

  it("the organiser's translation is used in its language, their own wording otherwise", () => {
    const base = {
      event,
      accept_url: 'https://x/a',
      expires_at: AT,
      wording: { subject: 'Come to {{event_name}}', body: 'Hi {{first_name}}' },
      wording_translations: { es: { subject: 'Ven a {{event_name}}', body: 'Hola {{first_name}}' } },
    };
    expect(renderTemplate('invitation', { ...base, lang: 'es' }).subject).toBe('Ven a Campamento');
    expect(renderTemplate('invitation', { ...base, lang: 'de' }).subject).toBe('Come to Campamento');
  });
});
