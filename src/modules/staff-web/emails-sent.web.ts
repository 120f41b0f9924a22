/**
 * The Emails tab's first page (docs/email.md "Emails sent"): what Muster emailed for the event —
 * invitations, parent or guardian links, reminders, announcements, team invitations; never
 * sign-in codes — with each recipient's delivery state from the email log.
 * - GET /staff/events/{e}/emails (`email_log.event`: event admins, series roles, global admins),
 *   filters `kind`, `state`, `to` (part of the address), paging `before` (the last id shown);
 *   newest first, 50 a page. An unknown kind or state re-renders with the message (422).
 * The wording of the emails and the reminder switch are the sub-page `…/emails/wording`
 * (emails.web.ts); `emailTabs` gives both pages their sub-navigation, each tab only to callers
 * whose roles meet its action.
 */
import { Type } from 'typebox';
import type { Action } from '../../access/actions.js';
import type { AccessContext } from '../../access/authorize.js';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { listSentEmails, SENT_KINDS, SENT_STATES, type SentEmail } from '../email/sent-emails.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { EMAIL_STATE_LABELS } from './format.js';
import { EventParams } from './home.web.js';
import { may } from './nav.js';
import { attempt, eventFrame, when } from './org-pages.js';

/** Each kind of email as staff read it (filter and table). */
export const KIND_LABELS: Record<(typeof SENT_KINDS)[number], string> = {
  invitation: staffText('emails_sent.invitation_to_register'),
  guardian_invitation: staffText('emails_sent.parent_or_guardian_link'),
  registration_reminder: staffText('emails_sent.reminder'),
  announcement: staffText('emails_sent.announcement'),
  staff_invitation: staffText('emails_sent.team_invitation'),
};

const Filters = Type.Object(
  {
    kind: Type.Optional(Type.String({ maxLength: 40 })),
    state: Type.Optional(Type.String({ maxLength: 20 })),
    to: Type.Optional(Type.String({ maxLength: 320 })),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{0,15}$' })),
  },
  { additionalProperties: false },
);

const TABS: { label: string; path: string; action: Action }[] = [
  { label: staffText('emails_sent.sent'), path: '/emails', action: 'email_log.event' },
  {
    label: staffText('emails_sent.wording_and_reminders'),
    path: '/emails/wording',
    action: 'email_templates.manage',
  },
];

/** The Emails sub-navigation for this caller; `path` (after /staff/events/{id}) is current. */
export function emailTabs(access: AccessContext, eventId: number, path: string) {
  return TABS.filter((t) => may(access, t.action)).map((t) => ({
    label: t.label,
    href: `/staff/events/${eventId}${t.path}`,
    current: t.path === path,
  }));
}

/** The state cell: the label, when the provider last reported, and the reason of a refusal. */
function stateText(e: SentEmail, zone: string): string {
  const label = EMAIL_STATE_LABELS[e.state] ?? e.state;
  const times: Record<string, string | null> = {
    sent: e.sent_at,
    delivered: e.delivered_at,
    opened: e.opened_at,
    bounced: e.bounced_at,
  };
  const at = times[e.state];
  return `${label}${at ? ` ${when(at, zone)}` : ''}${e.error ? `: ${e.error}` : ''}`;
}

export function sentEmailPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/emails',
    {
      config: { action: 'email_log.event', credential: 'session_cookie' },
      schema: { hide: true, params: EventParams, querystring: Filters, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { event } = ctx.access;
      const q = request.query;
      const input = {
        ...(q.kind ? { kind: q.kind } : {}),
        ...(q.state ? { state: q.state } : {}),
        ...(q.to?.trim() ? { to: q.to } : {}),
        ...(q.before ? { before: Number(q.before) } : {}),
      };
      const res = await attempt(() => listSentEmails(ctx, input));
      const page = 'ok' in res ? res.ok : { emails: [], total: 0, next_before: null };
      const path = `/staff/events/${event.id}/emails`;
      const keep = new URLSearchParams();
      for (const k of ['kind', 'state', 'to'] as const) if (q[k]?.trim()) keep.set(k, q[k]!.trim());
      if (page.next_before) keep.set('before', String(page.next_before));
      return reply.page('ok' in res ? 200 : 422, 'staff/emails-sent', {
        ...eventFrame(ctx.access, '/emails', staffText('emails_sent.emails_sent')),
        tabs: emailTabs(ctx.access, event.id, '/emails'),
        path,
        filters: { kind: q.kind ?? '', state: q.state ?? '', to: q.to ?? '' },
        kinds: SENT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })),
        states: SENT_STATES.map((s) => ({ value: s, label: EMAIL_STATE_LABELS[s] })),
        total: page.total,
        emails: page.emails.map((e) => ({
          ...e,
          kind_label: KIND_LABELS[e.kind],
          queued: when(e.created_at, event.timezone),
          state_text: stateText(e, event.timezone),
        })),
        older: page.next_before ? `${path}?${keep.toString()}` : null,
        mayAnnounce: may(ctx.access, 'announcements.manage'),
        errors:
          'error' in res ? [{ message: res.error, field: /^State/.test(res.error) ? 'state' : 'kind' }] : [],
      });
    },
  );
}
