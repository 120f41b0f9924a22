/**
 * Participant and guardian emails (docs/decisions.md "Participants API" guardian invitations; docs/email.md):
 * the event's wording (wording.ts, editable per event) around a link Muster adds, dates written out
 * in the event's time zone. The links carry one-time tokens, so these emails are only ever queued
 * sealed (email.service.ts); no subject, text or HTML holds a token outside the link itself.
 */
import { escapeHtml } from '../../lib/html.js';
import { languageInfo, rawText, translator } from '../../lib/i18n/index.js';
import { stringProp } from '../../lib/narrow.js';
import { textFor } from '../languages/translations.js';
import {
  actionLink,
  type EventBrand,
  emailShownLanguage,
  formatWhen,
  langAttributes,
  layout,
  textFooter,
} from './layout.js';
import type { Rendered } from './templates.js';
import { type EditableTemplate, fill, isLinkParagraph, paragraphs, type Wording } from './wording.js';

interface EventEmail {
  event: EventBrand;
  /** The event's own wording (in its default language); null/absent = Muster's default. */
  wording?: Wording | null;
  /** The organiser's wording in other languages (`{es: {subject, body}}`). */
  wording_translations?: Record<string, Partial<Wording>>;
  /** The recipient's language (docs/languages.md); absent = the event's default, else English. */
  lang?: string | null;
  default_language?: string;
}

export interface InvitationVars extends EventEmail {
  first_name?: string | null;
  /** Web page that starts registration: `<MUSTER_BASE_URL>/register/accept?token=<token>`. */
  accept_url: string;
  /** ISO 8601 instant. */
  expires_at: string;
}

export interface GuardianInvitationVars extends EventEmail {
  participant_name: string;
  guardian_name?: string | null;
  /** Guardian portal page: `<MUSTER_BASE_URL>/guardian/accept?token=<token>`. */
  portal_url: string;
  /** ISO 8601 instant. */
  expires_at: string;
  /** Sent again by the reminder job: the subject starts with `Reminder: `. */
  reminder?: boolean;
}

export interface RegistrationReminderVars extends EventEmail {
  first_name?: string | null;
  /** The participant's registration page: `<MUSTER_BASE_URL>/register/<id>` (sign-in first). */
  continue_url: string;
  /** ISO 8601 instant registration closes. */
  closes_at: string;
}

/**
 * Jobs queued before the brand existed carry `event_name` only: rendered with the event's name,
 * in UTC, without logo or support line (so an upgrade loses no queued email).
 */
function withBrand(v: EventEmail): EventEmail {
  if (v.event) return v;
  const name = stringProp(v, 'event_name') ?? 'Muster';
  return { ...v, event: { name, logo_url: null, support_email: null, timezone: 'UTC' } };
}

/** The language the reader asked for: theirs, else the event's default, else English. */
function wantedOf(v: EventEmail): string {
  return v.lang ?? v.default_language ?? 'en';
}

/**
 * The language the email is shown in: the wanted one when its catalog has this email's messages,
 * else the event's default, else English (a partial catalog, docs/languages.md "Emails").
 */
function langOf(template: EditableTemplate, v: EventEmail): string {
  return emailShownLanguage(template, v.lang, v.default_language);
}

/**
 * The wording: the organiser's translation into the wanted language, else their own wording (in the
 * event's default language), else Muster's default in the shown language `lang` from the catalog
 * (`email.<template>.subject|body`). `language` is the wording's language; `note` is true when the
 * reader's own frame says their language's version is missing.
 */
function wordingIn(
  template: EditableTemplate,
  v: EventEmail,
  lang: string,
): { wording: Wording; language: string; note: boolean } {
  const wanted = wantedOf(v);
  if (v.wording) {
    const shown = textFor(wanted, v.default_language ?? 'en', v.wording, v.wording_translations, [
      'subject',
      'body',
    ]);
    return { wording: shown.text, language: shown.language, note: shown.fallback && lang === wanted };
  }
  return {
    wording: {
      subject: rawText(lang, `email.${template}.subject`),
      body: rawText(lang, `email.${template}.body`),
    },
    language: lang,
    note: false,
  };
}

/** Renders `template`'s wording with `values`, the link as a button where `{{link}}` stands (or last). */
export function renderWording(
  template: EditableTemplate,
  email: EventEmail,
  values: Record<string, string | null | undefined>,
  url: string,
): Rendered {
  const v = withBrand(email);
  const lang = langOf(template, v);
  const { wording, language, note: noted } = wordingIn(template, v, lang);
  const t = translator(lang);
  const all = { ...values, event_name: v.event.name, support_email: v.event.support_email };
  const label = rawText(lang, `email.${template}.link`);
  const parts = paragraphs(wording.body);
  const hasLink = parts.some((p) => /\{\{\s*link\s*\}\}/.test(p));
  const note = noted ? t('frame.fallback_note', { language: languageInfo(language).name }) : null;
  if (!hasLink) parts.push('{{link}}');
  const subject = fill(wording.subject, all).replace(/\s+/g, ' ').trim();
  const text = parts.map((p) => (isLinkParagraph(p) ? `${label}:\n${url}` : fill(p, { ...all, link: url })));
  const MARK = '\u0001';
  const html = parts.map((p) =>
    isLinkParagraph(p)
      ? actionLink(url, label)
      : escapeHtml(fill(p, { ...all, link: MARK }))
          .replace(/\n/g, '<br>')
          .split(MARK)
          .join(`<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`),
  );
  if (language !== lang) {
    // The organiser's words are in another language than the frame: mark them up (and say so when
    // the reader's own language was missing).
    html.splice(0, html.length, ...html.map((p) => `<span${langAttributes(language)}>${p}</span>`));
  }
  if (note) {
    text.unshift(note);
    html.unshift(`<em>${escapeHtml(note)}</em>`);
  }
  return {
    subject,
    text: `${text.join('\n\n')}\n${textFooter(v.event, lang)}`,
    html: layout(subject, html, v.event, lang),
  };
}

export function invitationTemplate(v: InvitationVars): Rendered {
  return renderWording(
    'invitation',
    v,
    {
      first_name: v.first_name,
      expires_at: formatWhen(v.expires_at, v.event?.timezone ?? 'UTC', langOf('invitation', v)),
    },
    v.accept_url,
  );
}

export function guardianInvitationTemplate(v: GuardianInvitationVars): Rendered {
  const rendered = renderWording(
    'guardian_invitation',
    v,
    {
      participant_name: v.participant_name,
      guardian_name: v.guardian_name,
      expires_at: formatWhen(v.expires_at, v.event?.timezone ?? 'UTC', langOf('guardian_invitation', v)),
    },
    v.portal_url,
  );
  if (!v.reminder) return rendered;
  return {
    ...rendered,
    subject: translator(langOf('guardian_invitation', v))('email.reminder_subject', {
      subject: rendered.subject,
    }),
  };
}

export function registrationReminderTemplate(v: RegistrationReminderVars): Rendered {
  return renderWording(
    'registration_reminder',
    v,
    {
      first_name: v.first_name,
      closes_at: formatWhen(v.closes_at, v.event?.timezone ?? 'UTC', langOf('registration_reminder', v)),
    },
    v.continue_url,
  );
}
