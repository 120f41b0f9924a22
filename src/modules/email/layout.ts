/**
 * The frame of every email (docs/email.md "Emails a parent understands"): the event's logo and name
 * on top, the support address at the bottom, dates written out in the event's time zone. Pure.
 */
import { escapeHtml } from '../../lib/html.js';
import {
  firstCovering,
  formatWhen as formatWhenIn,
  htmlTranslator,
  languageInfo,
  translator,
} from '../../lib/i18n/index.js';

/** What an event email shows of its event; sealed with the email's variables at queue time. */
export interface EventBrand {
  name: string;
  /** Absolute http(s) URL of the event's logo, or null (no image then). */
  logo_url: string | null;
  support_email: string | null;
  /** IANA zone: every date in the email is written in it. */
  timezone: string;
}

/**
 * An instant (ISO 8601 or PostgreSQL timestamptz text) written out for readers of `lang` in
 * `timeZone` through Intl (lib/i18n/format.ts): `Saturday 26 December 2026 at 07:47 Greenwich Mean
 * Time`. An unknown zone falls back to UTC; an unreadable value is returned unchanged.
 */
export function formatWhen(instant: string, timeZone: string, lang = 'en'): string {
  return formatWhenIn(instant, lang, timeZone);
}

/** The catalog messages every email's frame uses (footer, reminder subject). */
const EMAIL_FRAME_KEYS = [
  'email.questions',
  'email.questions_html',
  'email.questions_plain',
  'email.sent_with',
  'email.reminder_subject',
];

/**
 * The language email `template` (`invitation`, `announcement`, … : catalog `email.<template>.*`)
 * is written in: the first of `candidates` (the reader's, then the event's default) whose catalog
 * has the email's messages and its frame's, else English. A partial catalog (Arabic: the pages'
 * frame only) thus gets a whole email in the default language, and `lang`/`dir` say so.
 */
export function emailShownLanguage(template: string, ...candidates: (string | null | undefined)[]): string {
  return firstCovering(candidates, [...EMAIL_FRAME_KEYS, `email.${template}.`]);
}

/** The `lang` (and `dir` when right-to-left) attributes of text in `code`. */
export function langAttributes(code: string): string {
  const info = languageInfo(code);
  return info.dir === 'rtl' ? ` lang="${info.code}" dir="rtl"` : ` lang="${info.code}"`;
}

/** The plain-text footer: who sends the email and where to ask questions (in `lang`). */
export function textFooter(brand?: EventBrand, lang = 'en'): string {
  if (!brand) return '\n--\nMuster\n';
  const t = translator(lang);
  const ask = brand.support_email ? `${t('email.questions', { email: brand.support_email })}\n` : '';
  return `\n--\n${ask}${t('email.sent_with', { event: brand.name })}\n`;
}

/**
 * The HTML document: `paragraphs` are HTML already escaped by the caller; the brand (when given)
 * adds the logo and name on top and the support address below.
 */
export function layout(title: string, paragraphs: string[], brand?: EventBrand, lang = 'en'): string {
  const esc = escapeHtml;
  const th = htmlTranslator(translator(lang));
  const logo = brand?.logo_url
    ? `<img src="${esc(brand.logo_url)}" alt="${esc(brand.name)}" style="max-height:64px;max-width:100%">`
    : '';
  const header = brand
    ? `<header style="border-bottom:1px solid #ddd;padding-bottom:.5rem;margin-bottom:1rem">${logo}<div style="font-weight:600">${esc(brand.name)}</div></header>\n`
    : '';
  const ask = brand?.support_email ? `${th('email.questions_html', { email: brand.support_email })}<br>` : '';
  const footer = brand ? `${ask}${th('email.sent_with', { event: brand.name })}` : 'Muster';
  return `<!doctype html><html${langAttributes(lang)}><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:36rem;margin:auto;padding:1rem">
${header}${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
<p style="color:#444;font-size:.9em;border-top:1px solid #ddd;padding-top:.5rem">${footer}</p></body></html>`;
}

/** A button-like link (the action of the email). */
export function actionLink(url: string, label: string): string {
  return `<a href="${escapeHtml(url)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:.6rem 1rem;border-radius:.4rem;text-decoration:none;font-weight:600">${escapeHtml(label)}</a>`;
}
