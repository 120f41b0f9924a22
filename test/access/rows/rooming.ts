/**
 * Authorization-matrix rows for the rooming API, transcribed from the rooming issue ("Safeguarding
 * leads and global admins only, except reading rooms and names (event admins)") and the check
 * order 401 → 403 kind/scope → 404 → 403 reach, not from src/access. Run by
 * test/rooming/rows.test.ts; the route keys count for the coverage test in test/access/matrix.test.ts.
 *
 * - Every route is for users only: API keys and the bans:write-scoped token get 403 before lookup.
 * - Reading rooms (and their occupants' names, also as door lists): event admins, series roles on the event's series
 *   (they administer its events), the event's safeguarding leads, global admins.
 * - Everything else (room changes, CSV import, rules, plan, apply): the event's safeguarding leads
 *   and global admins only (series roles see no sensitive data, so they are refused too).
 * - Columns: A (the role holders' event) by id and UUID, sibling B, foreign C, missing X.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Table = Record<PrincipalName, string>;
export const ROOMING_COLUMNS = ['A:id', 'A:uuid', 'B:id', 'C:id', 'X:id'] as const;

const REFUSED_BY_CREDENTIAL = {
  none: '401  401    401  401  401',
  garbage: '401  401    401  401  401',
  badChecksum: '401  401    401  401  401',
  revokedEventKey: '401  401    401  401  401',
  expiredMobile: '401  401    401  401  401',
  revokedMobile: '401  401    401  401  401',
  expiredGlobal: '401  401    401  401  401',
  revokedGlobal: '401  401    401  401  401',
  demotedGlobal: '401  401    401  401  401',
  scopedToken: '403  403    403  403  403',
  seriesKeyS1: '403  403    403  403  403',
  seriesKeyS2: '403  403    403  403  403',
  eventKeyA: '403  403    403  403  403',
  eventKeyB: '403  403    403  403  403',
  eventKeyC: '403  403    403  403  403',
  legacyKeyA: '403  403    403  403  403',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const READ: Table = {
  ...REFUSED_BY_CREDENTIAL,
  //                 A:id A:uuid B:id C:id X:id
  participant:      '403  403    403  403  404',
  readOnly:         '403  403    403  403  404',
  limited:          '403  403    403  403  404',
  ops:              '403  403    403  403  404',
  eventAdmin:       '200  200    403  403  404',
  safeguarding:     '200  200    403  403  404',
  seriesOwner:      '200  200    200  403  404',
  seriesOrganizer:  '200  200    200  403  404',
  admin:            '200  200    200  200  404',
  globalToken:      '200  200    200  200  404',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const MANAGE: Table = {
  ...REFUSED_BY_CREDENTIAL,
  //                 A:id A:uuid B:id C:id X:id
  participant:      '403  403    403  403  404',
  readOnly:         '403  403    403  403  404',
  limited:          '403  403    403  403  404',
  ops:              '403  403    403  403  404',
  eventAdmin:       '403  403    403  403  404',
  safeguarding:     '200  200    403  403  404',
  seriesOwner:      '403  403    403  403  404',
  seriesOrganizer:  '403  403    403  403  404',
  admin:            '200  200    200  200  404',
  globalToken:      '200  200    200  200  404',
};

const P = '/api/v1';
export type RoomingMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const ROUTES: { method: RoomingMethod; path: string; table: Table; success: number }[] = [
  { method: 'GET', path: '/events/:event_id/rooms', table: READ, success: 200 },
  { method: 'GET', path: '/events/:event_id/rooms/door-lists.pdf', table: READ, success: 200 },
  { method: 'POST', path: '/events/:event_id/rooms', table: MANAGE, success: 201 },
  { method: 'POST', path: '/events/:event_id/rooms/import', table: MANAGE, success: 200 },
  { method: 'PATCH', path: '/events/:event_id/rooms/:id', table: MANAGE, success: 200 },
  { method: 'DELETE', path: '/events/:event_id/rooms/:id', table: MANAGE, success: 204 },
  { method: 'GET', path: '/events/:event_id/rooming/rules', table: MANAGE, success: 200 },
  { method: 'PUT', path: '/events/:event_id/rooming/rules', table: MANAGE, success: 200 },
  { method: 'POST', path: '/events/:event_id/rooming/plan', table: MANAGE, success: 200 },
  { method: 'POST', path: '/events/:event_id/rooming/apply', table: MANAGE, success: 200 },
];
export const roomingRouteKeys = ROUTES.map((r) => `${r.method} ${P}${r.path}`);

export interface RoomingRow {
  method: RoomingMethod;
  route: string;
  path: string;
  principal: PrincipalName;
  target: (typeof ROOMING_COLUMNS)[number];
  expected: { status: number; error: string | undefined };
}

const KEYS = new Set<PrincipalName>([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function errorFor(principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404) return 'Event not found';
  return undefined;
}

export const roomingRows: RoomingRow[] = ROUTES.flatMap(({ method, path, table, success }) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== ROOMING_COLUMNS.length) throw new Error(`bad row ${path} ${principal}`);
    return ROOMING_COLUMNS.map((target, i) => ({
      method,
      route: `${method} ${P}${path}`,
      path,
      principal,
      target,
      expected: {
        status: statuses[i] === 200 ? success : statuses[i]!,
        error: errorFor(principal, statuses[i]!),
      },
    }));
  }),
);
