/**
 * Email templates: each renders a subject, a plain-text body and an HTML body from its variables.
 * Values are HTML-escaped; templates are plain functions (no template engine needed at this size).
 * Event emails (registration-templates.ts) carry the event's brand and wording (docs/email.md).
 */
import { escapeHtml } from '../../lib/html.js';
import { type AnnouncementVars, announcementTemplate } from './announcement-template.js';
import { formatWhen, layout } from './layout.js';
import {
  type GuardianInvitationVars,
  guardianInvitationTemplate,
  type InvitationVars,
  invitationTemplate,
  type RegistrationReminderVars,
  registrationReminderTemplate,
} from './registration-templates.js';
import { signInCodeTemplate } from './sign-in-code-template.js';

export interface TemplateVars {
  /** `lang`: the reader's language (docs/languages.md); absent = English. */
  sign_in_code: { code: string; expires_minutes: number; name?: string | null; lang?: string };
  key_revoked: { key_name: string; key_kind: string; revoked_at: string; scope: string };
  // Registration: event invitation and guardian invitation.
  invitation: InvitationVars;
  guardian_invitation: GuardianInvitationVars;
  /** Registration closes soon and this one is not submitted (reminder job, docs/email.md). */
  registration_reminder: RegistrationReminderVars;
  /** A new staff member was given a role: where to sign in (the email itself is the key). */
  /** An organiser's announcement (announcement-template.ts). */
  announcement: AnnouncementVars;
  staff_invitation: { scope_name: string; role: string; invited_by: string; sign_in_url: string };
  /** An outbound webhook endpoint was switched off after failing for days (to its creator). */
  webhook_disabled: { host: string; scope_name: string; webhooks_url: string };
}
export type TemplateName = keyof TemplateVars;
export type {
  GuardianInvitationVars,
  InvitationVars,
  RegistrationReminderVars,
} from './registration-templates.js';

import { keysOf } from '../../lib/narrow.js';

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

export { escapeHtml, layout };

const templates: { [K in TemplateName]: (v: TemplateVars[K]) => Rendered } = {
  sign_in_code: signInCodeTemplate,
  key_revoked: (v) => ({
    subject: `Muster API key revoked: ${v.key_name}`,
    text: `The ${v.key_kind} "${v.key_name}" (${v.scope}) was revoked on ${formatWhen(v.revoked_at, 'UTC')} by someone who presented its secret.\n\nIf this was not you, the secret had leaked: it no longer works. Issue a new key if your integration still needs one.\n`,
    html: layout('API key revoked', [
      `The ${escapeHtml(v.key_kind)} <strong>${escapeHtml(v.key_name)}</strong> (${escapeHtml(v.scope)}) was revoked on ${escapeHtml(formatWhen(v.revoked_at, 'UTC'))} by someone who presented its secret.`,
      'If this was not you, the secret had leaked: it no longer works. Issue a new key if your integration still needs one.',
    ]),
  }),
  staff_invitation: (v) => ({
    subject: `You have been added to ${v.scope_name} on Muster`,
    text: `Hello,\n\n${v.invited_by} added you to ${v.scope_name} as ${v.role}.\n\nSign in with this email address at ${v.sign_in_url} (or in the Muster app) to get started.\n`,
    html: layout(`You have been added to ${v.scope_name}`, [
      'Hello,',
      `${escapeHtml(v.invited_by)} added you to <strong>${escapeHtml(v.scope_name)}</strong> as ${escapeHtml(v.role)}.`,
      `<a href="${escapeHtml(v.sign_in_url)}">Sign in with this email address</a> (or in the Muster app) to get started.`,
    ]),
  }),
  webhook_disabled: (v) => ({
    subject: `Muster webhook switched off: ${v.host}`,
    text: `Every delivery of the webhook to ${v.host} (${v.scope_name}) failed for 5 days, so Muster switched it off.\n\nFix the receiver, then switch the webhook on again and redeliver what it missed: ${v.webhooks_url}\n`,
    html: layout('Webhook switched off', [
      `Every delivery of the webhook to <strong>${escapeHtml(v.host)}</strong> (${escapeHtml(v.scope_name)}) failed for 5 days, so Muster switched it off.`,
      `Fix the receiver, then <a href="${escapeHtml(v.webhooks_url)}">switch the webhook on again</a> and redeliver what it missed.`,
    ]),
  }),
  invitation: invitationTemplate,
  guardian_invitation: guardianInvitationTemplate,
  registration_reminder: registrationReminderTemplate,
  announcement: announcementTemplate,
};

/** Every template name (the render test checks each participant- and guardian-facing one). */
export const TEMPLATE_NAMES: TemplateName[] = keysOf(templates);

export function renderTemplate<K extends TemplateName>(name: K, vars: TemplateVars[K]): Rendered {
  return templates[name](vars);
}
