/**
 * The setup wizard's pages (organiser-operations issue, item 5: "event admins and above, like the
 * event update route"; docs/decisions.md "Credentials and roles" event management: event_admin, series roles, global admins).
 * Forms are listed with a payload: without the CSRF token every principal is refused (403).
 */
import type { StaffPage } from './types.js';

const base = (event: number) => `/staff/events/${event}/setup`;

export const pages: StaffPage[] = [
  {
    route: 'GET /staff/events/:event_id/setup',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => base(t.event),
  },
  {
    route: 'GET /staff/events/:event_id/setup/:step',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/consents`,
  },
  {
    route: 'POST /staff/events/:event_id/setup/:step',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/details`,
    payload: 'name=Renamed',
  },
  {
    route: 'POST /staff/events/:event_id/setup/complete',
    action: 'events.setup_complete',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/complete`,
    payload: '',
  },
  {
    route: 'POST /staff/events/:event_id/setup/consents/:consent_type',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/consents/waiver`,
    payload: 'title=T&body=B',
  },
  {
    route: 'POST /staff/events/:event_id/setup/consents',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/consents`,
    payload: 'title=Photo%20release&body=B',
  },
  {
    route: 'POST /staff/events/:event_id/setup/consents/:consent_type/remove',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/consents/nothing_here/remove`,
    payload: '',
  },
  {
    route: 'POST /staff/events/:event_id/setup/images/:kind',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/images/logo`,
    payload: 'file=x',
  },
  {
    route: 'POST /staff/events/:event_id/setup/images/:kind/remove',
    action: 'event_setup.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `${base(t.event)}/images/logo/remove`,
    payload: '',
  },
];
