/**
 * The event's emails page (issue 16 item 10: "organisers can edit the wording … with a preview";
 * docs/email.md): event admins, series roles and global admins — "event admins and above", the
 * same people who manage the event's registrations — as event_manage in docs/decisions.md "Credentials and roles"'s words.
 */
import type { StaffPage } from './types.js';

const E = (t: { event: number }) => `/staff/events/${t.event}/emails`;

export const pages: StaffPage[] = [
  // What went out (docs/email.md "Emails sent"): no spec line names a reader of an event's sent
  // mail; decided as the people who already see each announcement's recipients and their delivery
  // state and who manage the emails' wording: event_manage.
  {
    route: 'GET /staff/events/:event_id/emails',
    action: 'email_log.event',
    who: 'event_manage',
    target: 'event',
    url: E,
  },
  {
    route: 'GET /staff/events/:event_id/emails/wording',
    action: 'email_templates.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${E(t)}/wording`,
  },
  {
    route: 'GET /staff/events/:event_id/emails/:template',
    action: 'email_templates.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${E(t)}/invitation`,
  },
  {
    route: 'POST /staff/events/:event_id/emails/reminders',
    action: 'email_templates.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${E(t)}/reminders`,
    payload: 'enabled=true',
  },
  {
    route: 'POST /staff/events/:event_id/emails/:template',
    action: 'email_templates.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${E(t)}/invitation`,
    payload: 'intent=save&subject=Hi&body=Hello',
  },
  {
    route: 'POST /staff/events/:event_id/emails/:template/reset',
    action: 'email_templates.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${E(t)}/invitation/reset`,
    payload: '',
  },
];
