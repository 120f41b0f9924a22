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

  it('a language whose catalog lacks the email (Arabic) gets the default language, and lang/dir say so', () => {
    const base = { event, lang: 'ar', accept_url: 'https://x/a', expires_at: AT };
    const es = renderTemplate('invitation', { ...base, default_language: 'es' });
    expect(es.subject).toBe('Te invitamos a inscribirte en Campamento');
    expect(es.html).toContain('<html lang="es">');
    expect(es.html).not.toContain('rtl');
    const en = renderTemplate('registration_reminder', {
      event,
      lang: 'ar',
      continue_url: 'https://x/c',
      closes_at: AT,
    });
    expect(en.html).toContain('<html lang="en">');
    expect(en.text).toContain('Saturday');
    const code = renderTemplate('sign_in_code', { code: '123456', expires_minutes: 10, lang: 'ar' });
    expect(code.html).toContain('<html lang="en">');
    expect(code.subject).toContain('123456');
  });

  it("an organiser's Arabic text keeps its own lang and dir inside the default-language frame", () => {
    const invitation = renderTemplate('invitation', {
      event,
      lang: 'ar',
      default_language: 'en',
      accept_url: 'https://x/a',
      expires_at: AT,
      wording: { subject: 'Come', body: 'Hi {{first_name}}' },
      wording_translations: { ar: { subject: 'تعال', body: 'مرحبا {{first_name}}' } },
    });
    expect(invitation.subject).toBe('تعال');
    expect(invitation.html).toContain('<html lang="en">');
    expect(invitation.html).toContain('<span lang="ar" dir="rtl">مرحبا');
    expect(invitation.text).not.toContain('English');
    const announcement = (text_language: string | null) =>
      renderTemplate('announcement', {
        event_name: 'Campamento',
        support_email: null,
        subject: text_language ? 'Bus' : 'حافلة',
        body: text_language ? 'At nine' : 'في التاسعة',
        kind: 'participant',
        participant_names: '',
        lang: 'ar',
        default_language: 'en',
        text_language,
      });
    const translated = announcement(null);
    expect(translated.html).toContain('<html lang="en">');
    expect(translated.html).toContain('<p lang="ar" dir="rtl">في التاسعة</p>');
    const untranslated = announcement('en');
    expect(untranslated.html).toContain('<html lang="en">');
    expect(untranslated.html).not.toContain('rtl');
    expect(untranslated.text).not.toContain('English');
  });
});
