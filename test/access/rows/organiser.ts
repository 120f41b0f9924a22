/**
 * Authorization-matrix rows for the organiser API (exports, audit trail, team, API keys, groups),
 * transcribed from the organiser-operations issue and docs/decisions.md "Status codes and check order" (check order 401 → 403
 * kind/scope → 404 → 403 reach → 422), §2 (roles, reach, visibility), not from src/access. Run by
 * test/organiser/rows.test.ts; the route keys count for the coverage test in test/access/matrix.test.ts.
 *
 * - Every route is for users only: API keys and the bans:write-scoped token get 403 before any lookup.
 * - Exports: users with participants access (not `read_only`); `A:medical` is the `medical` preset,
 *   open only to global admins and safeguarding leads (series roles see no sensitive data) — 403
 *   for the others allowed on A. Other columns export `roster`.
 * - Audit trail per event, team (event roles), groups: event admins, series roles on the event's
 *   series, global admins. `GET /audit_log`: global admins only.
 * - Series roles and API keys: series owners of that series and global admins (organizers 403);
 *   `current` is for series keys only (400 for users); missing series → 404.
 * - Event columns: A (the role holders' event) by id and UUID, sibling B, foreign C, missing X.
 *   Series columns: S1 by UUID and slug, foreign S2, `current`, missing X.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Table = Record<PrincipalName, string>;

export const EVENT_COLUMNS = ['A:id', 'A:uuid', 'B:id', 'C:id', 'X:id', 'A:medical'] as const;
export const SERIES_COLUMNS = ['S1:uuid', 'S1:slug', 'S2:uuid', 'current', 'X:uuid'] as const;

// biome-ignore format: the matrix is a hand-aligned literal table
const EXPORTS: Table = {
  //                 A:id A:uuid B:id C:id X:id A:medical
  none:             '401  401    401  401  401  401',
  garbage:          '401  401    401  401  401  401',
  badChecksum:      '401  401    401  401  401  401',
  revokedEventKey:  '401  401    401  401  401  401',
  expiredMobile:    '401  401    401  401  401  401',
  revokedMobile:    '401  401    401  401  401  401',
  expiredGlobal:    '401  401    401  401  401  401',
  revokedGlobal:    '401  401    401  401  401  401',
  demotedGlobal:    '401  401    401  401  401  401',
  participant:      '403  403    403  403  404  403',
  readOnly:         '403  403    403  403  404  403',
  limited:          '200  200    403  403  404  403',
  ops:              '200  200    403  403  404  403',
  eventAdmin:       '200  200    403  403  404  403',
  safeguarding:     '200  200    403  403  404  200',
  seriesOwner:      '200  200    200  403  404  403',
  seriesOrganizer:  '200  200    200  403  404  403',
  admin:            '200  200    200  200  404  200',
  globalToken:      '200  200    200  200  404  200',
  scopedToken:      '403  403    403  403  403  403',
  seriesKeyS1:      '403  403    403  403  403  403',
  seriesKeyS2:      '403  403    403  403  403  403',
  eventKeyA:        '403  403    403  403  403  403',
  eventKeyB:        '403  403    403  403  403  403',
  eventKeyC:        '403  403    403  403  403  403',
  legacyKeyA:       '403  403    403  403  403  403',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const EVENT_MANAGE: Table = {
  //                 A:id A:uuid B:id C:id X:id
  none:             '401  401    401  401  401',
  garbage:          '401  401    401  401  401',
  badChecksum:      '401  401    401  401  401',
  revokedEventKey:  '401  401    401  401  401',
  expiredMobile:    '401  401    401  401  401',
  revokedMobile:    '401  401    401  401  401',
  expiredGlobal:    '401  401    401  401  401',
  revokedGlobal:    '401  401    401  401  401',
  demotedGlobal:    '401  401    401  401  401',
  participant:      '403  403    403  403  404',
  readOnly:         '403  403    403  403  404',
  limited:          '403  403    403  403  404',
  ops:              '403  403    403  403  404',
  eventAdmin:       '200  200    403  403  404',
  safeguarding:     '403  403    403  403  404',
  seriesOwner:      '200  200    200  403  404',
  seriesOrganizer:  '200  200    200  403  404',
  admin:            '200  200    200  200  404',
  globalToken:      '200  200    200  200  404',
  scopedToken:      '403  403    403  403  403',
  seriesKeyS1:      '403  403    403  403  403',
  seriesKeyS2:      '403  403    403  403  403',
  eventKeyA:        '403  403    403  403  403',
  eventKeyB:        '403  403    403  403  403',
  eventKeyC:        '403  403    403  403  403',
  legacyKeyA:       '403  403    403  403  403',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const SERIES_OWNER: Table = {
  //                 S1:uuid S1:slug S2:uuid current X:uuid
  none:             '401     401     401     401     401',
  garbage:          '401     401     401     401     401',
  badChecksum:      '401     401     401     401     401',
  revokedEventKey:  '401     401     401     401     401',
  expiredMobile:    '401     401     401     401     401',
  revokedMobile:    '401     401     401     401     401',
  expiredGlobal:    '401     401     401     401     401',
  revokedGlobal:    '401     401     401     401     401',
  demotedGlobal:    '401     401     401     401     401',
  participant:      '403     403     403     400     404',
  readOnly:         '403     403     403     400     404',
  limited:          '403     403     403     400     404',
  ops:              '403     403     403     400     404',
  eventAdmin:       '403     403     403     400     404',
  safeguarding:     '403     403     403     400     404',
  seriesOwner:      '200     200     403     400     404',
  seriesOrganizer:  '403     403     403     400     404',
  admin:            '200     200     200     400     404',
  globalToken:      '200     200     200     400     404',
  scopedToken:      '403     403     403     403     403',
  seriesKeyS1:      '403     403     403     403     403',
  seriesKeyS2:      '403     403     403     403     403',
  eventKeyA:        '403     403     403     403     403',
  eventKeyB:        '403     403     403     403     403',
  eventKeyC:        '403     403     403     403     403',
  legacyKeyA:       '403     403     403     403     403',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const GLOBAL_ADMIN: Table = {
  none: '401', garbage: '401', badChecksum: '401', revokedEventKey: '401', expiredMobile: '401',
  revokedMobile: '401', expiredGlobal: '401', revokedGlobal: '401', demotedGlobal: '401',
  participant: '403', readOnly: '403', limited: '403', ops: '403', eventAdmin: '403', safeguarding: '403',
  seriesOwner: '403', seriesOrganizer: '403', admin: '200', globalToken: '200', scopedToken: '403',
  seriesKeyS1: '403', seriesKeyS2: '403', eventKeyA: '403', eventKeyB: '403', eventKeyC: '403', legacyKeyA: '403',
};

const P = '/api/v1';
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Kind = 'exports' | 'event' | 'series' | 'global';
const ROUTES: { method: Method; path: string; kind: Kind }[] = [
  { method: 'GET', path: '/events/:event_id/exports/:preset.csv', kind: 'exports' },
  { method: 'GET', path: '/events/:event_id/exports/:preset.xlsx', kind: 'exports' },
  { method: 'GET', path: '/events/:event_id/audit_log', kind: 'event' },
  { method: 'GET', path: '/audit_log', kind: 'global' },
  { method: 'GET', path: '/events/:event_id/roles', kind: 'event' },
  { method: 'POST', path: '/events/:event_id/roles', kind: 'event' },
  { method: 'DELETE', path: '/events/:event_id/roles/:id', kind: 'event' },
  { method: 'GET', path: '/series/:series_id/roles', kind: 'series' },
  { method: 'POST', path: '/series/:series_id/roles', kind: 'series' },
  { method: 'DELETE', path: '/series/:series_id/roles/:id', kind: 'series' },
  { method: 'GET', path: '/series/:series_id/api_keys', kind: 'series' },
  { method: 'POST', path: '/series/:series_id/api_keys', kind: 'series' },
  { method: 'DELETE', path: '/series/:series_id/api_keys/:id', kind: 'series' },
  { method: 'GET', path: '/events/:event_id/groups', kind: 'event' },
  { method: 'POST', path: '/events/:event_id/groups', kind: 'event' },
  { method: 'PATCH', path: '/events/:event_id/groups/:id', kind: 'event' },
  { method: 'DELETE', path: '/events/:event_id/groups/:id', kind: 'event' },
  { method: 'PUT', path: '/events/:event_id/participants/:participant_event_id/groups', kind: 'event' },
];
export const organiserRouteKeys = ROUTES.map((r) => `${r.method} ${P}${r.path}`);

export interface OrganiserRow {
  method: Method;
  /** The route key (`GET /api/v1/events/:event_id/roles`). */
  route: string;
  path: string;
  principal: PrincipalName;
  target: string;
  expected: { status: number; error: string | undefined };
}

const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function errorFor(kind: Kind, principal: PrincipalName, status: number, target: string): string | undefined {
  if (status === 401) return 'Unauthorized';
  // A route closed to every key kind and open to global admins only names that in its refusal.
  if (status === 403 && kind === 'global' && principal !== 'scopedToken')
    return 'Only global admins can read the whole audit log';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403 && kind === 'series') return 'You do not have access to this series';
  if (status === 403 && target === 'A:medical' && !['participant', 'readOnly'].includes(principal))
    return 'This export needs access to medical and safeguarding data';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404) return kind === 'series' ? 'Series not found' : 'Event not found';
  if (status === 400) return '"current" can only be used with a series API key';
  return undefined;
}

const SUCCESS: Record<Method, number> = { GET: 200, POST: 201, PATCH: 200, PUT: 200, DELETE: 204 };

function tableOf(kind: Kind): { table: Table; columns: readonly string[] } {
  if (kind === 'exports') return { table: EXPORTS, columns: EVENT_COLUMNS };
  if (kind === 'event') return { table: EVENT_MANAGE, columns: EVENT_COLUMNS.slice(0, 5) };
  if (kind === 'series') return { table: SERIES_OWNER, columns: SERIES_COLUMNS };
  return { table: GLOBAL_ADMIN, columns: ['plain'] };
}

export const organiserRows: OrganiserRow[] = ROUTES.flatMap(({ method, path, kind }) => {
  const { table, columns } = tableOf(kind);
  return PRINCIPALS.flatMap((principal) => {
    const statuses = table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== columns.length) throw new Error(`bad row ${path} ${principal}`);
    return columns.map((target, i) => {
      const status = statuses[i]!;
      return {
        method,
        route: `${method} ${P}${path}`,
        path,
        principal,
        target,
        expected: {
          status: status === 200 ? SUCCESS[method] : status,
          error: errorFor(kind, principal, status, target),
        },
      };
    });
  });
});
