/**
 * The check-in desk (issue "Staff dashboard" item 7), transcribed from docs/decisions.md "Credentials and roles" and the spec's
 * check-in rules ("Notes, scans and check-in … require a user-bearing credential"):
 * - the desk itself and its writes (scans, undo) are "writes at the door": any event access except
 *   `read_only` (event_write). A `read_only` user may read scans (the API's GET /scans and the
 *   stream) but not check anyone in, so the desk page is a 403 page for them: it would be a page of
 *   buttons they may not press. Their read of the live feed stays open (as in the API).
 * - search and the participant list cached for offline search: participants access (not read_only).
 * - the one-tap scan (POST …/checkin/scan, the API's POST /scans with its verdict): a write at the
 *   door (event_write), like the bulk replay.
 * - the roll call (issue 24 "Exits and presence"): it lists the event's people by name, who is in
 *   and who left, so it is the participant list's rule (participants: not read_only); its live
 *   updates ride the stream above. The pickup run sheet (issue 24 "Travel pickups") lists the
 *   day's arrivals by name in the same way: the participant list's rule too.
 * - the scan-context settings page and its forms (issue 24: "Per-context `refuse` list, editable by
 *   event admins on the scan-context settings (page and API)"): the API's rule for changing a
 *   context (contract §11: "set by event admins"): event_admin, series roles, global admins.
 * The data routes answer JSON (401 without a session); the stream is Server-Sent Events. Posts are
 * sent without the CSRF token here (403 for everyone before anything else); the same posts with a
 * valid token from read_only are refused with 403 and change nothing in test/web/staff-checkin.test.ts.
 */
import type { StaffPage } from './types.js';

const base = (t: { event: number }) => `/staff/events/${t.event}/checkin`;
const route = (rest: string) => `/staff/events/:event_id/checkin${rest}`;

export const pages: StaffPage[] = [
  { route: `GET ${route('')}`, action: 'scans.write', who: 'event_write', target: 'event', url: base },
  {
    route: `GET ${route('/stream')}`,
    action: 'scans.read',
    who: 'event_access',
    target: 'event',
    url: (t) => `${base(t)}/stream`,
    answers: 'stream',
  },
  {
    route: `GET ${route('/search')}`,
    action: 'participants.search',
    who: 'participants',
    target: 'event',
    url: (t) => `${base(t)}/search?q=a`,
    answers: 'json',
  },
  {
    route: `GET ${route('/participants')}`,
    action: 'participants.list',
    who: 'participants',
    target: 'event',
    url: (t) => `${base(t)}/participants`,
    answers: 'json',
  },
  {
    route: `POST ${route('/scan')}`,
    action: 'scans.write',
    who: 'event_write',
    target: 'event',
    url: (t) => `${base(t)}/scan`,
    payload: 'participant_id=1',
    answers: 'json',
  },
  {
    route: 'GET /staff/events/:event_id/roll-call',
    action: 'participants.list',
    who: 'participants',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/roll-call`,
  },
  {
    route: 'GET /staff/events/:event_id/run-sheet',
    action: 'participants.list',
    who: 'participants',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/run-sheet`,
  },
  {
    route: `POST ${route('/scans')}`,
    action: 'scans.write',
    who: 'event_write',
    target: 'event',
    url: (t) => `${base(t)}/scans`,
    payload: 'scans=1',
    answers: 'json',
  },
  {
    route: `POST ${route('/undo')}`,
    action: 'scans.write',
    who: 'event_write',
    target: 'event',
    url: (t) => `${base(t)}/undo`,
    payload: 'participant_id=1&scan_context_id=1',
    answers: 'json',
  },
  {
    route: 'GET /staff/events/:event_id/scan-contexts',
    action: 'scan_contexts.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/scan-contexts`,
  },
  {
    route: 'POST /staff/events/:event_id/scan-contexts/:id',
    action: 'scan_contexts.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/scan-contexts/1`,
    payload: 'refuse=minor',
  },
  {
    route: 'POST /staff/events/:event_id/scan-contexts/:id/default',
    action: 'scan_contexts.manage',
    who: 'event_manage',
    target: 'event',
    url: (t) => `/staff/events/${t.event}/scan-contexts/1/default`,
    payload: '',
  },
];
