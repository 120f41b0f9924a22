/**
 * The announcement email: the organiser's own words, with the facts
 * Muster fills in around them (the event's name, why the reader gets it, where to ask questions).
 * Plain language only: no links into the API, no tokens, no machine timestamps. HTML and text parts.
 */
import { escapeHtml } from '../../lib/html.js';
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
}

function reason(v: AnnouncementVars): string {
  if (v.kind === 'guardian')
    return `You are receiving this because you are a parent or guardian of ${v.participant_names}, who is registered for ${v.event_name}.`;
  if (v.kind === 'staff') return `You are receiving this because you are on the team for ${v.event_name}.`;
  return `You are receiving this because you are registered for ${v.event_name}.`;
}

function contact(v: AnnouncementVars): string | null {
  return v.support_email
    ? `Questions? Reply to this email or write to ${v.support_email}.`
    : 'Questions? Reply to this email.';
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
  const footer = [reason(v), contact(v)].filter((x): x is string => x !== null);
  const subject = `${v.event_name}: ${v.subject}`;
  const text = `${paragraphs.join('\n\n')}\n\n--\n${v.event_name}\n${footer.join('\n')}\n`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:36rem;margin:auto;padding:1rem">
<p style="color:#555;font-size:.9em;margin:0">${escapeHtml(v.event_name)}</p>
<h1 style="font-size:1.25em">${escapeHtml(v.subject)}</h1>
${paragraphs.map((p) => `<p>${paragraphHtml(p)}</p>`).join('\n')}
<hr style="border:0;border-top:1px solid #ccc">
${footer.map((f) => `<p style="color:#555;font-size:.9em">${escapeHtml(f)}</p>`).join('\n')}
</body></html>`;
  return { subject, text, html };
}
