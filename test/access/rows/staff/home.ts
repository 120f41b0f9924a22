/** Staff home and event overview (issue "Staff dashboard" items 1–2). */
import type { StaffPage } from './types.js';

export const pages: StaffPage[] = [
  {
    route: 'GET /staff',
    action: 'account.events',
    who: 'authenticated',
    target: 'none',
    url: () => '/staff',
  },
  {
    route: 'GET /staff/events/:event_id',
    action: 'events.overview',
    who: 'event_access',
    target: 'event',
    url: (t) => `/staff/events/${t.event}`,
  },
];
