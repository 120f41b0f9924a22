/**
 * Organiser pages (issue 16 items 1, 2, 6, 7, 8), transcribed from the issue and docs/decisions.md "Credentials and roles":
 * exports for participants access (not read_only); the event's audit trail, groups and
 * announcements for event admins, series roles and global admins ("event admins and above" for
 * announcements: the lead's reading, docs/organiser-api.md); the whole audit trail and the ban list
 * for global admins only. Form posts are listed with a payload (sent without CSRF: 403 for all).
 */
import type { StaffPage } from './types.js';

const event = (path: string) => (t: { event: number }) => `/staff/events/${t.event}${path}`;

export const pages: StaffPage[] = [
  {
    route: 'GET /staff/events/:event_id/announcements',
    action: 'announcements.manage',
    who: 'event_manage',
    target: 'event',
    url: event('/announcements'),
  },
  {
    route: 'POST /staff/events/:event_id/announcements',
    action: 'announcements.manage',
    who: 'event_manage',
    target: 'event',
    url: event('/announcements'),
    payload: 'audience=staff&subject=Hi&body=Hello&when=now&intent=send',
  },
  {
    route: 'POST /staff/events/:event_id/announcements/:id/cancel',
    action: 'announcements.manage',
    who: 'event_manage',
    target: 'event',
    url: event('/announcements/1/cancel'),
    payload: '',
  },
  {
    route: 'GET /staff/events/:event_id/audit',
    action: 'audit_log.event',
    who: 'event_manage',
    target: 'event',
    url: event('/audit'),
  },
  {
    route: 'GET /staff/audit',
    action: 'audit_log.read',
    who: 'global_admin',
    target: 'none',
    url: () => '/staff/audit',
  },
  {
    route: 'GET /staff/bans',
    action: 'bans.read',
    who: 'global_admin',
    target: 'none',
    url: () => '/staff/bans',
  },
  {
    route: 'POST /staff/bans',
    action: 'bans.create',
    who: 'global_admin',
    target: 'none',
    url: () => '/staff/bans',
    payload: 'emails=someone%40example.org',
  },
  {
    route: 'POST /staff/bans/:id/revoke',
    action: 'bans.manage',
    who: 'global_admin',
    target: 'none',
    url: () => '/staff/bans/00000000-0000-4000-8000-000000000001/revoke',
    payload: '',
  },
  {
    route: 'POST /staff/bans/:id/reinstate',
    action: 'bans.manage',
    who: 'global_admin',
    target: 'none',
    url: () => '/staff/bans/00000000-0000-4000-8000-000000000001/reinstate',
    payload: '',
  },
  {
    route: 'GET /staff/events/:event_id/groups',
    action: 'groups.manage',
    who: 'event_manage',
    target: 'event',
    url: event('/groups'),
  },
  {
    route: 'POST /staff/events/:event_id/groups',
    action: 'groups.manage',
    who: 'event_manage',
    target: 'event',
    url: event('/groups'),
    payload: 'name=Red&color=%23EC3750',
  },
  {
    route: 'POST /staff/events/:event_id/groups/assign',
    action: 'groups.manage',
    who: 'event_manage',
    target: 'event',
    url: event('/groups/assign'),
    payload: 'group_id=1&intent=add',
  },
  {
    route: 'GET /staff/events/:event_id/exports',
    action: 'exports.read',
    who: 'participants',
    target: 'event',
    url: event('/exports'),
  },
  {
    route: 'GET /staff/events/:event_id/exports/:preset.csv',
    action: 'exports.read',
    who: 'participants',
    target: 'event',
    url: event('/exports/roster.csv'),
    contentType: 'text/csv; charset=utf-8',
  },
  {
    route: 'GET /staff/events/:event_id/exports/:preset.xlsx',
    action: 'exports.read',
    who: 'participants',
    target: 'event',
    url: event('/exports/roster.xlsx'),
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
];
