/**
 * Authorization-matrix rows for retention policies, transcribed from issue 31 ("Retention and
 * shredding per event … a preview and a download of what will be removed for the event admin's own
 * records") and docs/privacy.md: the event's managers (global admins, series owners/organizers of the
 * event's series, the event's admins), with the spec's check order, not from src/access. PUT rows send
 * an invalid body (`days_after_end: -1`), so an allowed caller gets 422 and nothing is stored.
 * Run by test/privacy/retention-rows.test.ts.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Table = Record<PrincipalName, string>;
export const RETENTION_COLUMNS = ['A:id', 'A:uuid', 'B:id', 'C:id', 'X:id'] as const;

// biome-ignore format: the matrix is a hand-aligned literal table
const MANAGE: Table = {
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

const P = '/api/v1';
const ROUTES: { method: 'GET' | 'PUT'; path: string; allowed: number }[] = [
  { method: 'GET', path: '/events/:event_id/retention', allowed: 200 },
  { method: 'PUT', path: '/events/:event_id/retention', allowed: 422 },
  { method: 'GET', path: '/events/:event_id/retention/preview', allowed: 200 },
  { method: 'GET', path: '/events/:event_id/retention/download', allowed: 200 },
];
export const retentionRouteKeys = ROUTES.map((r) => `${r.method} ${P}${r.path}`);

export interface RetentionRow {
  method: 'GET' | 'PUT';
  route: string;
  path: string;
  principal: PrincipalName;
  target: (typeof RETENTION_COLUMNS)[number];
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

export const retentionRows: RetentionRow[] = ROUTES.flatMap(({ method, path, allowed }) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = MANAGE[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== RETENTION_COLUMNS.length) throw new Error(`bad row ${path} ${principal}`);
    return RETENTION_COLUMNS.map((target, i) => {
      const status = statuses[i] === 200 ? allowed : (statuses[i] as number);
      return {
        method,
        route: `${method} ${P}${path}`,
        path,
        principal,
        target,
        expected: { status, error: errorFor(principal, status) },
      };
    });
  }),
);
