/**
 * The staff dashboard's pages (docs/staff-dashboard.md): server-rendered HTML under `/staff`, over
 * the same services and the same gate as the API. One encapsulated scope inside the web pages'
 * scope (modules/web/web.plugin.ts: cookies, CSRF, eta, the error page), which adds:
 * - `Cache-Control: no-store` on every answer (the pages show personal data),
 * - a Content-Security-Policy that allows scripts from this origin only (htmx, the desk's scripts)
 *   and WebAssembly compilation (the desk's QR decoder); still no inline script or handler,
 * - the scripts themselves: `/assets/htmx.min.js` (htmx.org from node_modules) and
 *   `/assets/js/<name>.js` (web/public/js).
 * Each area registers its pages from its own file (`<area>.web.ts`); every page declares
 * `config: { action, credential: 'session_cookie' }`, so a page answers exactly what the matching
 * API route would (403 page for a role without access, 302 to /signin without a session).
 * Pinned by test/web/staff-rows.test.ts (the staff pages' authorization matrix).
 */
import type { Deps } from '../../deps.js';
import type { Api } from '../../http/typed.js';
import { PAGE_CSP } from '../web/paths.js';
import { announcementPages } from './announcements.web.js';
import { apiKeyPages } from './api-keys.web.js';
import { arrivalsPages } from './arrivals.web.js';
import { staffAssets } from './assets.js';
import { auditPages } from './audit.web.js';
import { banPages } from './bans.web.js';
import { checkinPages } from './checkin.web.js';
import { emailPages } from './emails.web.js';
import { sentEmailPages } from './emails-sent.web.js';
import { exportPages } from './exports.web.js';
import { groupPages } from './groups.web.js';
import { homePages } from './home.web.js';
import { invitationPages } from './invitations.web.js';
import { newEventPages } from './new-event.web.js';
import { participantPages } from './participant.web.js';
import { participantActionPages } from './participant-actions.web.js';
import { participantsPages } from './participants.web.js';
import { resendPages } from './resend.web.js';
import { roomingBoardPages } from './rooming/board.web.js';
import { roomsPages } from './rooming/rooms.web.js';
import { roomsImportPage } from './rooming/rooms-import.web.js';
import { selectionPages } from './selection.web.js';
import { setupPages } from './setup.web.js';
import { setupContentPages } from './setup-content.web.js';
import { teamPages } from './team.web.js';
import { webhookPages } from './webhooks.web.js';

/** The staff pages' CSP: the web pages' policy plus same-origin scripts, fetches and WebAssembly. */
export const STAFF_CSP = PAGE_CSP.replace(
  "default-src 'none'",
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'self'",
);

/** Areas of the dashboard, one registration function each (keep one line per area). */
const AREAS: ((web: Api, deps: Deps) => void)[] = [
  homePages,
  newEventPages, // a new event of a series: blank or a copy of an earlier one
  participantsPages, // the participants table (dashboard)
  checkinPages, // check-in desk
  arrivalsPages, // arrivals board (live flight status)
  invitationPages, // invitations
  teamPages, // event and series team
  apiKeyPages, // API keys
  webhookPages, // outbound webhooks of an event or a series, their delivery log
  announcementPages, // announcements and chat blasts (organiser operations)
  auditPages, // audit trail of an event, and everything (global admins)
  banPages, // the ban list (global admins)
  groupPages, // an event's groups and who is in them
  roomsPages, // the room inventory (rooming)
  roomsImportPage, // rooms from a CSV (multipart, its own scope)
  roomingBoardPages, // the rooming board: plan, apply, move
  exportPages, // export downloads for the session cookie
  sentEmailPages, // what went out (the Emails tab)
  emailPages, // email wording and reminders
  participantPages, // the participant page and its section edits (record)
  participantActionPages, // withdraw/reinstate/reject, notes (record)
  resendPages, // guardian links and invitations resent from the participant page and overview
  selectionPages, // what to do with the participants ticked in the table
  setupPages, // event setup wizard
  setupContentPages, // its consent documents and image uploads
];

export function staffPages(web: Api, deps: Deps): void {
  staffAssets(web);
  web.register(async (staff) => {
    staff.addHook('onSend', async (request, reply, payload) => {
      // Public library files (/assets/…) keep their own caching; everything else is no-store.
      if (!(request.url.startsWith('/assets/') && reply.hasHeader('cache-control')))
        reply.header('Cache-Control', 'no-store');
      if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
        reply.header('Content-Security-Policy', STAFF_CSP);
      }
      return payload;
    });
    for (const area of AREAS) area(staff, deps);
  });
}
