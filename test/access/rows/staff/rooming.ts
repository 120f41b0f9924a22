/**
 * Rooming pages (issue 30 items 1 and 4), transcribed from the issue: the Rooms page and the board
 * for whoever reads rooms and names (event admins, series roles, the event's safeguarding leads,
 * global admins); every change (rooms, CSV import, plan, apply, move) for safeguarding leads and
 * global admins only. Form posts are listed with a payload (sent without CSRF: 403 for all).
 */
import type { StaffPage } from './types.js';

const event = (path: string) => (t: { event: number }) => `/staff/events/${t.event}${path}`;
const manage = (route: string, path: string, payload: string): StaffPage => ({
  route: `POST /staff/events/:event_id${route}`,
  action: 'rooming.manage',
  who: 'safeguarding',
  target: 'event',
  url: event(path),
  payload,
});

export const pages: StaffPage[] = [
  {
    route: 'GET /staff/events/:event_id/rooms',
    action: 'rooms.read',
    who: 'rooms_read',
    target: 'event',
    url: event('/rooms'),
  },
  {
    route: 'GET /staff/events/:event_id/rooming',
    action: 'rooms.read',
    who: 'rooms_read',
    target: 'event',
    url: event('/rooming'),
  },
  {
    route: 'GET /staff/events/:event_id/rooming/check',
    action: 'rooming.manage',
    who: 'safeguarding',
    target: 'event',
    url: event('/rooming/check?participant_event_id=1&room_id='),
  },
  manage('/rooms', '/rooms', 'name=Oak&capacity=2&type=twin&gender_designation=any'),
  manage(
    '/rooms/import',
    '/rooms/import',
    'csv=name%2Ccapacity%2Ctype%2Cgender_designation%0AYew%2C1%2Csingle%2Cany',
  ),
  manage('/rooms/:id', '/rooms/1', 'name=Oak&capacity=2&type=twin&gender_designation=any'),
  manage('/rooms/:id/delete', '/rooms/1/delete', ''),
  manage('/rooming/plan', '/rooming/plan', 'keep_existing=true'),
  manage('/rooming/apply', '/rooming/apply', 'plan='),
  manage('/rooming/move', '/rooming/move', 'participant_event_id=1&room_id='),
];
