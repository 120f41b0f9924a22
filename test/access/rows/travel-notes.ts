/**
 * Authorization-matrix rows for the travel calendar and staff notes, transcribed from the spec
 * ("Authentication": GET /events/{id}/travel → series key: any event in its series, event key: its
 * own event; "Notes, scans, …" → 403 for both key kinds) and the contract (§1 event path segment and
 * check order, §2 roles and reach, §4 notes, §5 travel), not from src/access. Run by
 * test/travel/rows.test.ts; the route keys count for the coverage test in test/access/matrix.test.ts.
 *
 * - Travel: users with event access (global admin, any event role incl. read_only, a series role on
 *   the event's series), an event key of the event (and its legacy key), a series key of its series.
 *   `{event_id}` is a numeric id or UUID: a slug is 404 (after 401/403 kind, before reach).
 * - Notes: users with participants access (global admin, series role, event role other than
 *   read_only); keys and the bans:write-scoped token 403 before any lookup; `{event_id}` also takes
 *   the slug. `A:nopart`: a registration of another event under A → 404 for those allowed on A.
 *   `A:bad`: POST with an invalid body (422 for those allowed on A); GET reads it like A:id.
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

type Table = Record<PrincipalName, string>;

export interface TravelNotesRow {
  method: 'GET' | 'POST';
  route: string;
  principal: PrincipalName;
  target: string;
  expected: { status: number; error?: string };
}

const TRAVEL_COLUMNS = [
  'A:id',
  'A:uuid',
  'A:slug',
  'B:id',
  'B:uuid',
  'C:id',
  'C:uuid',
  'X:id',
  'X:uuid',
  'X:slug',
];

// biome-ignore format: the matrix is a hand-aligned literal table
const TRAVEL: Table = {
  //                 A:id A:uuid A:slug B:id B:uuid C:id C:uuid X:id X:uuid X:slug
  none:             '401  401    401    401  401    401  401    401  401    401',
  garbage:          '401  401    401    401  401    401  401    401  401    401',
  badChecksum:      '401  401    401    401  401    401  401    401  401    401',
  revokedEventKey:  '401  401    401    401  401    401  401    401  401    401',
  expiredMobile:    '401  401    401    401  401    401  401    401  401    401',
  revokedMobile:    '401  401    401    401  401    401  401    401  401    401',
  expiredGlobal:    '401  401    401    401  401    401  401    401  401    401',
  revokedGlobal:    '401  401    401    401  401    401  401    401  401    401',
  demotedGlobal:    '401  401    401    401  401    401  401    401  401    401',
  participant:      '403  403    404    403  403    403  403    404  404    404',
  readOnly:         '200  200    404    403  403    403  403    404  404    404',
  limited:          '200  200    404    403  403    403  403    404  404    404',
  ops:              '200  200    404    403  403    403  403    404  404    404',
  eventAdmin:       '200  200    404    403  403    403  403    404  404    404',
  safeguarding:     '200  200    404    403  403    403  403    404  404    404',
  seriesOwner:      '200  200    404    200  200    403  403    404  404    404',
  seriesOrganizer:  '200  200    404    200  200    403  403    404  404    404',
  admin:            '200  200    404    200  200    200  200    404  404    404',
  globalToken:      '200  200    404    200  200    200  200    404  404    404',
  scopedToken:      '403  403    403    403  403    403  403    403  403    403',
  seriesKeyS1:      '200  200    404    200  200    403  403    404  404    404',
  seriesKeyS2:      '403  403    404    403  403    200  200    404  404    404',
  eventKeyA:        '200  200    404    403  403    403  403    404  404    404',
  eventKeyB:        '403  403    404    200  200    403  403    404  404    404',
  eventKeyC:        '403  403    404    403  403    200  200    404  404    404',
  legacyKeyA:       '200  200    404    403  403    403  403    404  404    404',
};

const NOTES_COLUMNS = [
  'A:id',
  'A:uuid',
  'A:slug',
  'B:id',
  'B:slug',
  'C:id',
  'C:uuid',
  'X:id',
  'X:uuid',
  'X:slug',
  'A:nopart',
  'A:bad',
];

// biome-ignore format: the matrix is a hand-aligned literal table
const NOTES: Table = {
  //                 A:id A:uuid A:slug B:id B:slug C:id C:uuid X:id X:uuid X:slug A:nopart A:bad
  none:             '401  401    401    401  401    401  401    401  401    401    401      401',
  garbage:          '401  401    401    401  401    401  401    401  401    401    401      401',
  badChecksum:      '401  401    401    401  401    401  401    401  401    401    401      401',
  revokedEventKey:  '401  401    401    401  401    401  401    401  401    401    401      401',
  expiredMobile:    '401  401    401    401  401    401  401    401  401    401    401      401',
  revokedMobile:    '401  401    401    401  401    401  401    401  401    401    401      401',
  expiredGlobal:    '401  401    401    401  401    401  401    401  401    401    401      401',
  revokedGlobal:    '401  401    401    401  401    401  401    401  401    401    401      401',
  demotedGlobal:    '401  401    401    401  401    401  401    401  401    401    401      401',
  participant:      '403  403    403    403  403    403  403    404  404    404    403      403',
  readOnly:         '403  403    403    403  403    403  403    404  404    404    403      403',
  limited:          '200  200    200    403  403    403  403    404  404    404    404      422',
  ops:              '200  200    200    403  403    403  403    404  404    404    404      422',
  eventAdmin:       '200  200    200    403  403    403  403    404  404    404    404      422',
  safeguarding:     '200  200    200    403  403    403  403    404  404    404    404      422',
  seriesOwner:      '200  200    200    200  200    403  403    404  404    404    404      422',
  seriesOrganizer:  '200  200    200    200  200    403  403    404  404    404    404      422',
  admin:            '200  200    200    200  200    200  200    404  404    404    404      422',
  globalToken:      '200  200    200    200  200    200  200    404  404    404    404      422',
  scopedToken:      '403  403    403    403  403    403  403    403  403    403    403      403',
  seriesKeyS1:      '403  403    403    403  403    403  403    403  403    403    403      403',
  seriesKeyS2:      '403  403    403    403  403    403  403    403  403    403    403      403',
  eventKeyA:        '403  403    403    403  403    403  403    403  403    403    403      403',
  eventKeyB:        '403  403    403    403  403    403  403    403  403    403    403      403',
  eventKeyC:        '403  403    403    403  403    403  403    403  403    403    403      403',
  legacyKeyA:       '403  403    403    403  403    403  403    403  403    403    403      403',
};

const P = '/api/v1';
const TRAVEL_ROUTE = `GET ${P}/events/:event_id/travel`;
const NOTES_GET = `GET ${P}/events/:event_id/participants/:participant_event_id/notes`;
const NOTES_POST = `POST ${P}/events/:event_id/participants/:participant_event_id/notes`;
export const travelNotesRouteKeys = [TRAVEL_ROUTE, NOTES_GET, NOTES_POST];

const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function errorFor(
  route: string,
  principal: PrincipalName,
  target: string,
  status: number,
): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403 && KEYS.has(principal)) {
    return route === TRAVEL_ROUTE
      ? 'This API key cannot access this event'
      : 'API keys cannot access this endpoint; it requires a user credential';
  }
  if (status === 403) return 'You do not have access to this event';
  if (status === 404)
    return target === 'A:nopart' ? 'Participant not found for this event' : 'Event not found';
  return undefined;
}

function expand(method: 'GET' | 'POST', route: string, table: Table, columns: string[]): TravelNotesRow[] {
  return PRINCIPALS.flatMap((principal) => {
    const statuses = table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== columns.length) throw new Error(`bad row ${route} ${principal}`);
    return columns.map((target, i) => {
      // GET notes takes no body: its `A:bad` cell reads like A:id.
      const listed = target === 'A:bad' && method === 'GET' ? statuses[0]! : statuses[i]!;
      const status = listed === 200 && method === 'POST' ? 201 : listed;
      return {
        method,
        route,
        principal,
        target,
        expected: { status, error: errorFor(route, principal, target, status) },
      };
    });
  });
}

export const travelNotesRows: TravelNotesRow[] = [
  ...expand('GET', TRAVEL_ROUTE, TRAVEL, TRAVEL_COLUMNS),
  ...expand('GET', NOTES_GET, NOTES, NOTES_COLUMNS),
  ...expand('POST', NOTES_POST, NOTES, NOTES_COLUMNS),
];

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
const MISSING_ID = '99999999';
const MISSING_SLUG = 'no-such-event';

/** The request of one row: URL with the target segment, and for POST a body valid (or not) for it. */
export function requestFor(
  row: TravelNotesRow,
  world: World,
): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> } {
  const [name, form] = row.target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  const event = name === 'X' ? null : world.events[name];
  let segment: string;
  if (event === null) segment = form === 'uuid' ? MISSING_UUID : form === 'slug' ? MISSING_SLUG : MISSING_ID;
  else segment = form === 'uuid' ? event.uuid : form === 'slug' ? event.slug : String(event.id);
  if (row.route === TRAVEL_ROUTE) return { method: 'GET', url: `${P}/events/${segment}/travel` };
  const reg =
    form === 'nopart'
      ? world.regs.regB.id
      : { A: world.regs.adultA.id, B: world.regs.regB.id, C: world.regs.regC.id, X: 1 }[name];
  const url = `${P}/events/${segment}/participants/${reg}/notes`;
  if (row.method === 'GET') return { method: 'GET', url };
  const payload =
    form === 'bad' ? { content: 'x', note_type: 'gossip' } : { content: `Matrix note ${row.principal}` };
  return { method: 'POST', url, payload };
}
