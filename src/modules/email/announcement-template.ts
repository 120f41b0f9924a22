/**
 * The announcement email: the organiser's own words, with the facts
 * Muster fills in around them (the event's name, why the reader gets it, where to ask questions).
 * Plain language only: no links into the API, no tokens, no machine timestamps. HTML and text parts.
 * The frame is in the reader's language (`lang`, catalog `email.announcement.*`); the organiser's
 * text is the one of that language when they wrote it, else the default-language one under a
 * note saying so (`text_language`, docs/languages.md).
 */
import { escapeHtml } from '../../lib/html.js';
import { languageInfo, type Translate, translator } from '../../lib/i18n/index.js';
import { emailShownLanguage, langAttributes } from './layout.js';
import type { Rendered } from './templates.js';

export interface AnnouncementVars {
  event_name: string;
  /** The event's support address (reply-to), or null when the event has none. */
  support_email: string | null;
  /** The organiser's subject line. */
  subject: string;
  /** The organiser's text with this recipient's placeholders already filled in. */
  body: string;
  /** Why the reader gets this email. */
  kind: 'participant' | 'guardian' | 'staff';
  /** Guardians: the first names of their children registered for the event ("Max and Ada"). */
  participant_names: string;
  /** The reader's language (absent in emails queued before languages: English). */
  lang?: string;
  /** The event's default language: the frame's when the reader's catalog lacks this email's text. */
  default_language?: string;
  /** The language of `subject` and `body` when it is not `lang` (the default-language text). */
  text_language?: string | null;
}

function reason(v: AnnouncementVars, t: Translate): string {
  const event = v.event_name;
  if (v.kind === 'guardian')
    return t('email.announcement.reason_guardian', { names: v.participant_names, event });
  if (v.kind === 'staff') return t('email.announcement.reason_staff', { event });
  return t('email.announcement.reason_participant', { event });
}

function contact(v: AnnouncementVars, t: Translate): string {
  return v.support_email ? t('email.questions', { email: v.support_email }) : t('email.questions_plain');
}

/** Escapes a paragraph, keeps its line breaks and turns web addresses into links. */
function paragraphHtml(text: string): string {
  return escapeHtml(text)
    .replace(/https?:\/\/[^\s<]+[^\s<.,;:!?)]/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\n/g, '<br>');
}

export function announcementTemplate(v: AnnouncementVars): Rendered {
  const paragraphs = v.body
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  // The frame in the reader's language when its catalog has this email, else the default's.
  const wanted = v.lang ?? 'en';
  const lang = emailShownLanguage('announcement', wanted, v.default_language);
  const t = translator(lang);
  const footer = [reason(v, t), contact(v, t)];
  const note =
    v.text_language && lang === wanted
      ? t('frame.fallback_note', { language: languageInfo(v.text_language).name })
      : null;
  // The organiser's text carries its own language when it is not the frame's (screen readers).
  const written = v.text_language ?? wanted;
  const textLang = written === lang ? '' : langAttributes(written);
  const subject = `${v.event_name}: ${v.subject}`;
  const text = `${note ? `${note}\n\n` : ''}${paragraphs.join('\n\n')}\n\n--\n${v.event_name}\n${footer.join('\n')}\n`;
  const html = `<!doctype html><html${langAttributes(lang)}><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:36rem;margin:auto;padding:1rem">
<p style="color:#555;font-size:.9em;margin:0">${escapeHtml(v.event_name)}</p>
${note ? `<p><em>${escapeHtml(note)}</em></p>\n` : ''}<h1 style="font-size:1.25em"${textLang}>${escapeHtml(v.subject)}</h1>
${paragraphs.map((p) => `<p${textLang}>${paragraphHtml(p)}</p>`).join('\n')}
<hr style="border:0;border-top:1px solid #ccc">
${footer.map((f) => `<p style="color:#555;font-size:.9em">${escapeHtml(f)}</p>`).join('\n')}
</body></html>`;
  return { subject, text, html };
}
