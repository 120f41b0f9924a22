/**
 * The staff participant page, its section edits and its buttons (issue 14 items 4–5), in the words
 * of docs/decisions.md "Credentials and roles": participants list/search/detail and notes → participants access (global
 * admin, series role, event role other than read_only); staff edits → the same (which fields each
 * role may write is checked per field: test/access/rows/staff-record.ts); withdraw/reinstate/reject
 * → event admins, series roles, global admins.
 */
import type { StaffPage } from './types.js';

const at = (t: { event: number; pe: number }, rest = '') =>
  `/staff/events/${t.event}/participants/${t.pe}${rest}`;
const BASE = 'GET /staff/events/:event_id/participants/:participant_event_id';
const POST = 'POST /staff/events/:event_id/participants/:participant_event_id';

export const pages: StaffPage[] = [
  { route: BASE, action: 'participants.read', who: 'participants', target: 'event', url: (t) => at(t) },
  {
    route: `${BASE}/history`,
    action: 'participants.read',
    who: 'participants',
    target: 'event',
    url: (t) => at(t, '/history'),
  },
  {
    route: `${BASE}/sections/:section`,
    action: 'participants.read',
    who: 'participants',
    target: 'event',
    url: (t) => at(t, '/sections/accommodation'),
  },
  {
    route: `${BASE}/sections/:section/edit`,
    action: 'participants.edit',
    who: 'participants',
    target: 'event',
    url: (t) => at(t, '/sections/accommodation/edit'),
  },
  {
    route: `${POST}/sections/:section`,
    action: 'participants.edit',
    who: 'participants',
    target: 'event',
    url: (t) => at(t, '/sections/accommodation'),
    payload: 'accommodation.notes=changed',
  },
  {
    route: `${BASE}/confirm/:action`,
    action: 'registrations.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => at(t, '/confirm/withdraw'),
  },
  {
    route: `${POST}/status/:action`,
    action: 'registrations.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => at(t, '/status/withdraw'),
    payload: 'reason=test',
  },
  {
    route: `${POST}/notes`,
    action: 'notes.write',
    who: 'participants',
    target: 'event',
    url: (t) => at(t, '/notes'),
    payload: 'content=hello',
  },
];
