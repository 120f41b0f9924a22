/**
 * Authorization-matrix rows for the series event API, transcribed from the spec ("Series and
 * events": POST /series/{s}/events requires a series API key, mobile/global tokens and event keys
 * 403; "Authentication" table: GET/POST /series/... series key own series only, event key 403) and
 * the contract (§1 check order 401 → 403 kind/scope → 404 → 403 reach → 422; §2 roles, keys reach
 * `setup/complete` of their event(s); §7; §9 `current`: a kind that may never use the endpoint 403
 * first, one that may but is not a series key 400). Not derived from src/access. Run by
 * test/events/rows.test.ts; the route keys count for the coverage test in test/access/matrix.test.ts.
 *
 * Decisions where both are silent (README "Series event API"): GET /series/{s}/events/{e} is open to
 * users with event access on that event, PATCH to event managers (global admin, series role,
 * event_admin); setup/complete to event managers and both key kinds within reach.
 *
 * Columns. Create: series S1/S2 by UUID and slug, `current`, missing X; `S1:bad` = invalid body.
 * Read/update: `series/event` pairs; `S1/C` = an event of another series under S1 (404);
 * `S1/A:bad` = invalid body (PATCH only; GET reads it like S1/A:id). Setup: events by id/UUID, A's
 * slug (404: only participants endpoints take slugs), missing X; D = a draft of S1 without a
 * support email (422 for those who reach it).
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

type Table = Record<PrincipalName, string>;

export interface SeriesEventRow {
  method: 'GET' | 'POST' | 'PATCH';
  route: string;
  principal: PrincipalName;
  target: string;
  expected: { status: number; error?: string };
}

const P = '/api/v1';
export const CREATE_ROUTE = `POST ${P}/series/:series_id/events`;
export const READ_ROUTE = `GET ${P}/series/:series_id/events/:event_id`;
export const UPDATE_ROUTE = `PATCH ${P}/series/:series_id/events/:event_id`;
export const SETUP_ROUTE = `POST ${P}/events/:event_id/setup/complete`;
export const seriesEventRouteKeys = [CREATE_ROUTE, READ_ROUTE, UPDATE_ROUTE, SETUP_ROUTE];

const CREATE_COLUMNS = ['S1:uuid', 'S1:slug', 'S2:uuid', 'S2:slug', 'current', 'X:uuid', 'X:slug', 'S1:bad'];

// biome-ignore format: the matrix is a hand-aligned literal table
const CREATE: Table = {
  //                 S1:uuid S1:slug S2:uuid S2:slug current X:uuid X:slug S1:bad
  none:             '401     401     401     401     401     401    401    401',
  garbage:          '401     401     401     401     401     401    401    401',
  badChecksum:      '401     401     401     401     401     401    401    401',
  revokedEventKey:  '401     401     401     401     401     401    401    401',
  expiredMobile:    '401     401     401     401     401     401    401    401',
  revokedMobile:    '401     401     401     401     401     401    401    401',
  expiredGlobal:    '401     401     401     401     401     401    401    401',
  revokedGlobal:    '401     401     401     401     401     401    401    401',
  demotedGlobal:    '401     401     401     401     401     401    401    401',
  participant:      '403     403     403     403     403     403    403    403',
  readOnly:         '403     403     403     403     403     403    403    403',
  limited:          '403     403     403     403     403     403    403    403',
  ops:              '403     403     403     403     403     403    403    403',
  eventAdmin:       '403     403     403     403     403     403    403    403',
  safeguarding:     '403     403     403     403     403     403    403    403',
  seriesOwner:      '403     403     403     403     403     403    403    403',
  seriesOrganizer:  '403     403     403     403     403     403    403    403',
  admin:            '403     403     403     403     403     403    403    403',
  globalToken:      '403     403     403     403     403     403    403    403',
  scopedToken:      '403     403     403     403     403     403    403    403',
  seriesKeyS1:      '201     201     403     403     201     404    404    422',
  seriesKeyS2:      '403     403     201     201     201     404    404    403',
  eventKeyA:        '403     403     403     403     403     403    403    403',
  eventKeyB:        '403     403     403     403     403     403    403    403',
  eventKeyC:        '403     403     403     403     403     403    403    403',
  legacyKeyA:       '403     403     403     403     403     403    403    403',
};

const PAIR_COLUMNS = [
  'S1/A:id',
  'S1/A:uuid',
  'S1/A:slug',
  'S1/B:slug',
  'S1/C:slug',
  'S2/C:slug',
  'current/A:slug',
  'X/A:slug',
  'S1/X:slug',
  'S1/A:bad',
];

// biome-ignore format: the matrix is a hand-aligned literal table
const READ: Table = {
  //                 S1/A:id S1/A:uuid S1/A:slug S1/B S1/C S2/C current/A X/A S1/X S1/A:bad
  none:             '401     401       401       401  401  401  401       401  401  401',
  garbage:          '401     401       401       401  401  401  401       401  401  401',
  badChecksum:      '401     401       401       401  401  401  401       401  401  401',
  revokedEventKey:  '401     401       401       401  401  401  401       401  401  401',
  expiredMobile:    '401     401       401       401  401  401  401       401  401  401',
  revokedMobile:    '401     401       401       401  401  401  401       401  401  401',
  expiredGlobal:    '401     401       401       401  401  401  401       401  401  401',
  revokedGlobal:    '401     401       401       401  401  401  401       401  401  401',
  demotedGlobal:    '401     401       401       401  401  401  401       401  401  401',
  participant:      '403     403       403       403  404  403  400       404  404  403',
  readOnly:         '200     200       200       403  404  403  400       404  404  200',
  limited:          '200     200       200       403  404  403  400       404  404  200',
  ops:              '200     200       200       403  404  403  400       404  404  200',
  eventAdmin:       '200     200       200       403  404  403  400       404  404  200',
  safeguarding:     '200     200       200       403  404  403  400       404  404  200',
  seriesOwner:      '200     200       200       200  404  403  400       404  404  200',
  seriesOrganizer:  '200     200       200       200  404  403  400       404  404  200',
  admin:            '200     200       200       200  404  200  400       404  404  200',
  globalToken:      '200     200       200       200  404  200  400       404  404  200',
  scopedToken:      '403     403       403       403  403  403  403       403  403  403',
  seriesKeyS1:      '200     200       200       200  404  403  200       404  404  200',
  seriesKeyS2:      '403     403       403       403  404  200  404       404  404  403',
  eventKeyA:        '403     403       403       403  403  403  403       403  403  403',
  eventKeyB:        '403     403       403       403  403  403  403       403  403  403',
  eventKeyC:        '403     403       403       403  403  403  403       403  403  403',
  legacyKeyA:       '403     403       403       403  403  403  403       403  403  403',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const UPDATE: Table = {
  //                 S1/A:id S1/A:uuid S1/A:slug S1/B S1/C S2/C current/A X/A S1/X S1/A:bad
  none:             '401     401       401       401  401  401  401       401  401  401',
  garbage:          '401     401       401       401  401  401  401       401  401  401',
  badChecksum:      '401     401       401       401  401  401  401       401  401  401',
  revokedEventKey:  '401     401       401       401  401  401  401       401  401  401',
  expiredMobile:    '401     401       401       401  401  401  401       401  401  401',
  revokedMobile:    '401     401       401       401  401  401  401       401  401  401',
  expiredGlobal:    '401     401       401       401  401  401  401       401  401  401',
  revokedGlobal:    '401     401       401       401  401  401  401       401  401  401',
  demotedGlobal:    '401     401       401       401  401  401  401       401  401  401',
  participant:      '403     403       403       403  404  403  400       404  404  403',
  readOnly:         '403     403       403       403  404  403  400       404  404  403',
  limited:          '403     403       403       403  404  403  400       404  404  403',
  ops:              '403     403       403       403  404  403  400       404  404  403',
  eventAdmin:       '200     200       200       403  404  403  400       404  404  422',
  safeguarding:     '403     403       403       403  404  403  400       404  404  403',
  seriesOwner:      '200     200       200       200  404  403  400       404  404  422',
  seriesOrganizer:  '200     200       200       200  404  403  400       404  404  422',
  admin:            '200     200       200       200  404  200  400       404  404  422',
  globalToken:      '200     200       200       200  404  200  400       404  404  422',
  scopedToken:      '403     403       403       403  403  403  403       403  403  403',
  seriesKeyS1:      '200     200       200       200  404  403  200       404  404  422',
  seriesKeyS2:      '403     403       403       403  404  200  404       404  404  403',
  eventKeyA:        '403     403       403       403  403  403  403       403  403  403',
  eventKeyB:        '403     403       403       403  403  403  403       403  403  403',
  eventKeyC:        '403     403       403       403  403  403  403       403  403  403',
  legacyKeyA:       '403     403       403       403  403  403  403       403  403  403',
};

const SETUP_COLUMNS = ['A:id', 'A:uuid', 'A:slug', 'B:id', 'C:uuid', 'D:id', 'X:id', 'X:uuid'];

// biome-ignore format: the matrix is a hand-aligned literal table
const SETUP: Table = {
  //                 A:id A:uuid A:slug B:id C:uuid D:id X:id X:uuid
  none:             '401  401    401    401  401    401  401  401',
  garbage:          '401  401    401    401  401    401  401  401',
  badChecksum:      '401  401    401    401  401    401  401  401',
  revokedEventKey:  '401  401    401    401  401    401  401  401',
  expiredMobile:    '401  401    401    401  401    401  401  401',
  revokedMobile:    '401  401    401    401  401    401  401  401',
  expiredGlobal:    '401  401    401    401  401    401  401  401',
  revokedGlobal:    '401  401    401    401  401    401  401  401',
  demotedGlobal:    '401  401    401    401  401    401  401  401',
  participant:      '403  403    404    403  403    403  404  404',
  readOnly:         '403  403    404    403  403    403  404  404',
  limited:          '403  403    404    403  403    403  404  404',
  ops:              '403  403    404    403  403    403  404  404',
  eventAdmin:       '200  200    404    403  403    403  404  404',
  safeguarding:     '403  403    404    403  403    403  404  404',
  seriesOwner:      '200  200    404    200  403    422  404  404',
  seriesOrganizer:  '200  200    404    200  403    422  404  404',
  admin:            '200  200    404    200  200    422  404  404',
  globalToken:      '200  200    404    200  200    422  404  404',
  scopedToken:      '403  403    403    403  403    403  403  403',
  seriesKeyS1:      '200  200    404    200  403    422  404  404',
  seriesKeyS2:      '403  403    404    403  200    403  404  404',
  eventKeyA:        '200  200    404    403  403    403  404  404',
  eventKeyB:        '403  403    404    200  403    403  404  404',
  eventKeyC:        '403  403    404    403  200    403  404  404',
  legacyKeyA:       '200  200    404    403  403    403  404  404',
};

const SERIES_KEYS: ReadonlySet<PrincipalName> = new Set(['seriesKeyS1', 'seriesKeyS2']);
const EVENT_KEYS: ReadonlySet<PrincipalName> = new Set(['eventKeyA', 'eventKeyB', 'eventKeyC', 'legacyKeyA']);

function errorFor(
  route: string,
  principal: PrincipalName,
  target: string,
  status: number,
): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 400) return '"current" can only be used with a series API key';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403 && route === CREATE_ROUTE)
    return SERIES_KEYS.has(principal)
      ? 'This API key cannot access this series'
      : 'Creating an event requires a series API key';
  if (status === 403 && EVENT_KEYS.has(principal) && route !== SETUP_ROUTE)
    return 'Event API keys cannot access series endpoints';
  if (status === 403 && (SERIES_KEYS.has(principal) || EVENT_KEYS.has(principal)))
    return 'This API key cannot access this event';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404)
    return route !== SETUP_ROUTE && target.startsWith('X') ? 'Series not found' : 'Event not found';
  if (status === 422 && route === SETUP_ROUTE) return 'Set a support email before completing the setup';
  if (status === 422 && route === CREATE_ROUTE) return 'Missing required fields: support_email';
  if (status === 422)
    return 'timezone must be an IANA time zone name such as Europe/London; got Mars/Olympus';
  return undefined;
}

function expand(
  method: SeriesEventRow['method'],
  route: string,
  table: Table,
  columns: string[],
): SeriesEventRow[] {
  return PRINCIPALS.flatMap((principal) => {
    const statuses = table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== columns.length) throw new Error(`bad row ${route} ${principal}`);
    return columns.map((target, i) => ({
      method,
      route,
      principal,
      target,
      expected: { status: statuses[i]!, error: errorFor(route, principal, target, statuses[i]!) },
    }));
  });
}

export const seriesEventRows: SeriesEventRow[] = [
  ...expand('POST', CREATE_ROUTE, CREATE, CREATE_COLUMNS),
  ...expand('GET', READ_ROUTE, READ, PAIR_COLUMNS),
  ...expand('PATCH', UPDATE_ROUTE, UPDATE, PAIR_COLUMNS),
  ...expand('POST', SETUP_ROUTE, SETUP, SETUP_COLUMNS),
];

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';

/** The request of one row; `draftD` is the runner's event of S1 without a support email. */
export function requestFor(
  row: SeriesEventRow,
  world: World,
  draftD: { id: number; uuid: string },
): { method: SeriesEventRow['method']; url: string; payload?: Record<string, unknown> } {
  const seriesSegment = (name: string, form = 'slug') => {
    if (name === 'current') return 'current';
    if (name === 'X') return form === 'uuid' ? MISSING_UUID : 'no-such-series';
    const s = world.series[name as 'S1' | 'S2'];
    return form === 'uuid' ? s.id : s.slug;
  };
  const eventSegment = (name: string, form: string) => {
    if (name === 'X') return form === 'uuid' ? MISSING_UUID : form === 'id' ? '99999999' : 'no-such-event';
    const e = name === 'D' ? { id: draftD.id, uuid: draftD.uuid, slug: '' } : world.events[name as 'A'];
    return form === 'uuid' ? e.uuid : form === 'slug' ? e.slug : String(e.id);
  };
  if (row.route === CREATE_ROUTE) {
    const [name, form] = row.target.split(':') as [string, string];
    const url = `${P}/series/${seriesSegment(name, form === 'bad' ? 'slug' : form)}/events`;
    const event =
      form === 'bad'
        ? { name: 'Matrix bad' }
        : { name: `Matrix ${row.principal} ${row.target}`, support_email: 'matrix@muster.example' };
    return { method: 'POST', url, payload: { event } };
  }
  if (row.route === SETUP_ROUTE) {
    const [name, form] = row.target.split(':') as [string, string];
    return { method: 'POST', url: `${P}/events/${eventSegment(name, form)}/setup/complete` };
  }
  const [pair, form] = row.target.split(':') as [string, string];
  const [s, e] = pair.split('/') as [string, string];
  const url = `${P}/series/${seriesSegment(s)}/events/${eventSegment(e, form === 'bad' ? 'slug' : form)}`;
  if (row.method === 'GET') return { method: 'GET', url };
  const event = form === 'bad' ? { timezone: 'Mars/Olympus' } : { venue_name: `Matrix ${row.principal}` };
  return { method: 'PATCH', url, payload: { event } };
}
