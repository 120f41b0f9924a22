/**
 * Registration emails (contract §4 invite, §8 guardian invitations). The links carry a
 * one-time token, so these emails are only ever queued sealed (email.service.ts); subjects hold
 * no secret.
 */
import { escapeHtml } from '../../lib/html.js';
import type { Rendered } from './templates.js';

export interface InvitationVars {
  event_name: string;
  first_name?: string | null;
  /** Web page that starts registration: `<MUSTER_BASE_URL>/register/accept?token=<token>`. */
  accept_url: string;
  /** The API path for app users: `POST <MUSTER_BASE_URL>/api/v1/registrations`. */
  api_url: string;
  token: string;
  expires_at: string;
}

export interface GuardianInvitationVars {
  event_name: string;
  participant_name: string;
  guardian_name?: string | null;
  /** Guardian portal page: `<MUSTER_BASE_URL>/guardian/accept?token=<token>`. */
  portal_url: string;
  /** The portal API: `<MUSTER_BASE_URL>/api/v1/guardian/<token>`. */
  api_url: string;
  expires_at: string;
}

type Layout = (title: string, paragraphs: string[]) => string;

const esc = escapeHtml;

export function invitationTemplate(v: InvitationVars, layout: Layout): Rendered {
  const hello = v.first_name ? `Hello ${v.first_name},` : 'Hello,';
  return {
    subject: `You're invited to register for ${v.event_name}`,
    text: `${hello}\n\nYou have been invited to register for ${v.event_name}.\n\nStart your registration here: ${v.accept_url}\n\nUsing the Muster app? Sign in with this email address and send your invitation token to ${v.api_url}:\n${v.token}\n\nThis invitation expires on ${v.expires_at}.\n`,
    html: layout(`Register for ${v.event_name}`, [
      esc(hello),
      `You have been invited to register for <strong>${esc(v.event_name)}</strong>.`,
      `<a href="${esc(v.accept_url)}">Start your registration</a>`,
      `Using the Muster app? Sign in with this email address and send this invitation token to <code>${esc(v.api_url)}</code>: <code>${esc(v.token)}</code>`,
      `This invitation expires on ${esc(v.expires_at)}.`,
    ]),
  };
}

export function guardianInvitationTemplate(v: GuardianInvitationVars, layout: Layout): Rendered {
  const hello = v.guardian_name ? `Hello ${v.guardian_name},` : 'Hello,';
  return {
    subject: `${v.participant_name}'s registration for ${v.event_name} needs a parent or guardian`,
    text: `${hello}\n\n${v.participant_name} has registered for ${v.event_name} and named you as a parent or guardian. Please review their registration, grant the permissions and sign the consents here:\n\n${v.portal_url}\n\n(API: ${v.api_url})\n\nThis link expires on ${v.expires_at}.\n`,
    html: layout(`Guardian approval for ${v.event_name}`, [
      esc(hello),
      `<strong>${esc(v.participant_name)}</strong> has registered for <strong>${esc(v.event_name)}</strong> and named you as a parent or guardian.`,
      `<a href="${esc(v.portal_url)}">Review the registration and give consent</a>`,
      `This link expires on ${esc(v.expires_at)}.`,
    ]),
  };
}
