/**
 * The staff pages' authorization matrix (issue "Staff dashboard"; docs/decisions.md "Credentials and roles"), transcribed from the
 * spec's role rules, not from src/access. Each area lists its pages in its own file in this folder
 * (`<area>.ts`, exporting `pages`); test/web/staff-rows.test.ts expands every page over the world's
 * users and two targets (event A of series S1, where each user holds the role its name says, and
 * event C of series S2, where only the global admin reaches) and checks the status, that refused
 * requests change nothing, and that every /staff route is listed here with the action it declares.
 */

/** Who may open a page, in the words of docs/decisions.md "Credentials and roles". */
export type Who =
  | 'authenticated' // any signed-in person
  | 'event_access' // any event role (read_only included), a series role on the event's series, global admins
  | 'participants' // event access except read_only
  | 'event_write' // any event role but read_only, series roles, global admins
  | 'event_manage' // event_admin, series roles, global admins
  | 'series_member' // a series role on the series (owner or organizer), global admins
  | 'series_owner' // the series' owner, global admins
  | 'rooms_read' // event_admin, the event's safeguarding leads, series roles, global admins (issue 30)
  | 'safeguarding' // the event's safeguarding leads, global admins (issue 30: rooming)
  | 'global_admin';

/** World users (test/support/world.ts) that hold each requirement on event A / series S1. */
export const MEETS: Record<Who, readonly string[]> = {
  authenticated: [
    'participant',
    'readOnly',
    'limited',
    'ops',
    'eventAdmin',
    'safeguarding',
    'seriesOwner',
    'seriesOrganizer',
    'admin',
  ],
  event_access: [
    'readOnly',
    'limited',
    'ops',
    'eventAdmin',
    'safeguarding',
    'seriesOwner',
    'seriesOrganizer',
    'admin',
  ],
  participants: ['limited', 'ops', 'eventAdmin', 'safeguarding', 'seriesOwner', 'seriesOrganizer', 'admin'],
  event_write: ['limited', 'ops', 'eventAdmin', 'safeguarding', 'seriesOwner', 'seriesOrganizer', 'admin'],
  event_manage: ['eventAdmin', 'seriesOwner', 'seriesOrganizer', 'admin'],
  series_member: ['seriesOwner', 'seriesOrganizer', 'admin'],
  series_owner: ['seriesOwner', 'admin'],
  rooms_read: ['eventAdmin', 'safeguarding', 'seriesOwner', 'seriesOrganizer', 'admin'],
  safeguarding: ['safeguarding', 'admin'],
  global_admin: ['admin'],
};

/** Ids a page's URL is built from: the event, its series and one of its registrations. */
export interface StaffTarget {
  event: number;
  series: string;
  pe: number;
}

export interface StaffPage {
  /** Fastify route key, e.g. `GET /staff/events/:event_id`. */
  route: string;
  /** The action the page declares (credential `session_cookie`). */
  action: string;
  who: Who;
  /** `none`: the URL names no event or series (one target only). */
  target: 'event' | 'series' | 'none';
  url: (t: StaffTarget) => string;
  /** Form body of a POST (sent without the CSRF token: every principal gets 403). */
  payload?: string;
  /**
   * What the route answers when allowed: an HTML page (default), JSON for a page's scripts, or a
   * Server-Sent Events stream (sent over a real connection). JSON and stream routes answer refusals
   * with JSON `{error}` and a missing session with 401 instead of the redirect to /signin.
   */
  answers?: 'json' | 'stream';
  /**
   * What an allowed caller gets when it is not 200: 404 for a page naming an id the world lacks (a
   * webhook: the world has none); everyone refused still gets 403 first (the gate runs before the lookup).
   */
  allowed?: 404;
  /** Content type of a successful answer when it is not an HTML page (file downloads). */
  contentType?: string;
}
