/**
 * The participants table (issue "Staff dashboard" item 3): who may list participants (docs/decisions.md "Credentials and roles"
 * "Participants list/search/detail: global admin, series role, or event role other than
 * read_only"). read_only and users without a role get the 403 page.
 */
import type { StaffPage } from './types.js';

export const pages: StaffPage[] = [
  {
    route: 'GET /staff/events/:event_id/participants',
    action: 'participants.list',
    who: 'participants',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/participants`,
  },
];
