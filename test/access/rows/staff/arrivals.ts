/**
 * The arrivals board (docs/travel.md "Arrivals board"), transcribed from the spec's travel rule
 * ("GET /events/{id}/travel" is open to everyone with access to the event) and contract §2: any
 * event role (read_only included), a series role on the event's series, global admins. The board
 * fragment its script refreshes answers the same.
 */
import type { StaffPage } from './types.js';

const base = (t: { event: number }) => `/staff/events/${t.event}/arrivals`;

export const pages: StaffPage[] = [
  {
    route: 'GET /staff/events/:event_id/arrivals',
    action: 'travel.read',
    who: 'event_access',
    target: 'event',
    url: base,
  },
  {
    route: 'GET /staff/events/:event_id/arrivals/board',
    action: 'travel.read',
    who: 'event_access',
    target: 'event',
    url: (t) => `${base(t)}/board`,
  },
];
