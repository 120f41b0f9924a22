/**
 * Invitations (staff dashboard issue, item 6), team and API keys (organiser-operations issue, items
 * 3–4) pages. Who, from the spec and the issues: invitations — whoever may invite (participants
 * access: any event role but read_only, series roles, global admins); event team — event admins,
 * series roles, global admins; series team and API keys — series owners and global admins.
 * Forms are listed with a payload (refused without the CSRF token); their signed-in rows are in
 * test/web/staff-invitations.test.ts and test/web/staff-team-keys.test.ts.
 */
import type { StaffPage } from './types.js';

const ev = (path: string) => (t: { event: number }) => `/staff/events/${t.event}${path}`;
const se = (path: string) => (t: { series: string }) => `/staff/series/${t.series}${path}`;

export const pages: StaffPage[] = [
  {
    route: 'GET /staff/events/:event_id/invitations',
    action: 'invitations.manage',
    who: 'participants',
    target: 'event',
    url: ev('/invitations'),
  },
  {
    route: 'POST /staff/events/:event_id/invitations',
    action: 'participants.invite',
    who: 'participants',
    target: 'event',
    url: ev('/invitations'),
    payload: 'email=x%40example.com',
  },
  {
    route: 'POST /staff/events/:event_id/invitations/list',
    action: 'participants.invite',
    who: 'participants',
    target: 'event',
    url: ev('/invitations/list'),
    payload: 'list=x%40example.com',
  },
  {
    route: 'POST /staff/events/:event_id/invitations/:id/resend',
    action: 'invitations.manage',
    who: 'participants',
    target: 'event',
    url: ev('/invitations/1/resend'),
    payload: '',
  },
  {
    route: 'POST /staff/events/:event_id/invitations/:id/revoke',
    action: 'invitations.manage',
    who: 'participants',
    target: 'event',
    url: ev('/invitations/1/revoke'),
    payload: '',
  },
  {
    route: 'POST /staff/events/:event_id/participants/:pe/guardians/:id/resend',
    action: 'guardians.resend',
    who: 'participants',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/participants/${t.pe}/guardians/1/resend`,
    payload: '',
  },
  {
    // An imported registrant's invitation, sent again from their page (issue 25 item 1): whoever may invite.
    route: 'POST /staff/events/:event_id/participants/:pe/invitation',
    action: 'participants.invite',
    who: 'participants',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/participants/${t.pe}/invitation`,
    payload: '',
  },
  {
    // The table's selection (issue 25 item 7): invite again whoever may invite; export whoever may
    // download exports (participants access, not read_only).
    route: 'POST /staff/events/:event_id/participants/selection/invitations',
    action: 'participants.invite',
    who: 'participants',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/participants/selection/invitations`,
    payload: 'registration_ids=1',
  },
  {
    route: 'POST /staff/events/:event_id/participants/selection/export',
    action: 'exports.read',
    who: 'participants',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/participants/selection/export`,
    payload: 'registration_ids=1',
  },
  {
    route: 'GET /staff/events/:event_id/team',
    action: 'event_roles.manage',
    who: 'event_manage',
    target: 'event',
    url: ev('/team'),
  },
  {
    route: 'POST /staff/events/:event_id/team',
    action: 'event_roles.manage',
    who: 'event_manage',
    target: 'event',
    url: ev('/team'),
    payload: 'email=x%40example.com&role=ops',
  },
  {
    route: 'POST /staff/events/:event_id/team/:id/remove',
    action: 'event_roles.manage',
    who: 'event_manage',
    target: 'event',
    url: ev('/team/1/remove'),
    payload: '',
  },
  {
    route: 'GET /staff/series/:series_id/team',
    action: 'series_roles.manage',
    who: 'series_owner',
    target: 'series',
    url: se('/team'),
  },
  {
    route: 'POST /staff/series/:series_id/team',
    action: 'series_roles.manage',
    who: 'series_owner',
    target: 'series',
    url: se('/team'),
    payload: 'email=x%40example.com&role=organizer',
  },
  {
    route: 'POST /staff/series/:series_id/team/:id/remove',
    action: 'series_roles.manage',
    who: 'series_owner',
    target: 'series',
    url: se('/team/1/remove'),
    payload: '',
  },
  {
    route: 'GET /staff/series/:series_id/api-keys',
    action: 'api_keys.manage',
    who: 'series_owner',
    target: 'series',
    url: se('/api-keys'),
  },
  {
    route: 'POST /staff/series/:series_id/api-keys',
    action: 'api_keys.manage',
    who: 'series_owner',
    target: 'series',
    url: se('/api-keys'),
    payload: 'name=Key&kind=series',
  },
  {
    route: 'POST /staff/series/:series_id/api-keys/:id/revoke',
    action: 'api_keys.manage',
    who: 'series_owner',
    target: 'series',
    url: se('/api-keys/00000000-0000-4000-8000-000000000001/revoke'),
    payload: '',
  },
];
