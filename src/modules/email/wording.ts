/**
 * Editable wording (docs/email.md "Editable wording"): organisers change the subject and body of
 * some emails per event; Muster fills in the facts through `{{placeholders}}` and always adds the
 * link itself (`{{link}}` only marks where its button goes; without it the button follows the
 * body). Pure: the stored wording is sealed into the email's variables at queue time.
 */
import { BASE_LANGUAGE, rawText } from '../../lib/i18n/index.js';

/** An event's wording of one template (or the default). */
export interface Wording {
  subject: string;
  body: string;
}

/** The templates organisers may reword. */
export const EDITABLE_TEMPLATES = ['invitation', 'guardian_invitation', 'registration_reminder'] as const;
export type EditableTemplate = (typeof EDITABLE_TEMPLATES)[number];

export const LINK_PLACEHOLDER = 'link';

/** Placeholders each template fills in (besides `{{link}}`). */
export const PLACEHOLDERS: Record<EditableTemplate, readonly string[]> = {
  invitation: ['event_name', 'first_name', 'expires_at', 'support_email'],
  guardian_invitation: ['event_name', 'participant_name', 'guardian_name', 'expires_at', 'support_email'],
  registration_reminder: ['event_name', 'first_name', 'closes_at', 'support_email'],
};

/** Muster's default wording, in English (the catalog's `email.<template>.subject|body`, docs/languages.md). */
export const DEFAULT_WORDING: Record<EditableTemplate, Wording> = Object.fromEntries(
  EDITABLE_TEMPLATES.map((t) => [
    t,
    {
      subject: rawText(BASE_LANGUAGE, `email.${t}.subject`),
      body: rawText(BASE_LANGUAGE, `email.${t}.body`),
    },
  ]),
) as Record<EditableTemplate, Wording>;

/** Button labels in English (fixed: organisers edit the wording, not the link; catalog `email.<template>.link`). */
export const LINK_LABELS: Record<EditableTemplate, string> = Object.fromEntries(
  EDITABLE_TEMPLATES.map((t) => [t, rawText(BASE_LANGUAGE, `email.${t}.link`)]),
) as Record<EditableTemplate, string>;

export const MAX_SUBJECT = 200;
export const MAX_BODY = 5000;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Why `wording` cannot be saved for `template` (blank, too long, unknown placeholder…), or null. */
export function wordingProblem(template: EditableTemplate, wording: Wording): string | null {
  if (wording.subject.trim() === '') return 'subject cannot be blank';
  if (wording.body.trim() === '') return 'body cannot be blank';
  if (/[\r\n]/.test(wording.subject)) return 'subject must be a single line';
  if (wording.subject.length > MAX_SUBJECT) return `subject must be at most ${MAX_SUBJECT} characters`;
  if (wording.body.length > MAX_BODY) return `body must be at most ${MAX_BODY} characters`;
  if ((wording.subject + wording.body).includes('\u0000'))
    return 'subject and body must not contain NUL characters';
  if (/\{\{\s*link\s*\}\}/.test(wording.subject)) return 'The subject cannot contain {{link}}';
  const allowed = new Set([...PLACEHOLDERS[template], LINK_PLACEHOLDER]);
  for (const text of [wording.subject, wording.body]) {
    for (const m of text.matchAll(PLACEHOLDER)) {
      if (!allowed.has(m[1]!))
        return `Unknown placeholder {{${m[1]}}}; this email knows ${[...allowed].map((p) => `{{${p}}}`).join(', ')}`;
    }
  }
  return null;
}

/**
 * `text` with each `{{name}}` replaced by `values[name]`; a missing or empty value also drops the
 * spaces before it (`Hello {{first_name}},` → `Hello,`).
 */
export function fill(text: string, values: Record<string, string | null | undefined>): string {
  return text.replace(/( *)\{\{\s*([a-z_]+)\s*\}\}/g, (_m, spaces: string, name: string) => {
    const value = values[name];
    return value ? `${spaces}${value}` : '';
  });
}

/** The body's paragraphs (blank-line separated); `{{link}}` alone in a paragraph marks the button. */
export function paragraphs(body: string): string[] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

export function isLinkParagraph(p: string): boolean {
  return /^\{\{\s*link\s*\}\}$/.test(p);
}
