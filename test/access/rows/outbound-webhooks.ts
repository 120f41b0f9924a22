/**
 * Authorization-matrix rows of outbound webhooks, transcribed from the issue ("managed over the API
 * … by event admins (event) and series owners (series)") and the contract (§1 check order, §2
 * roles: series roles reach the events of their series; API keys 403 on user features), not from
 * src/access:
 * - `/events/{event_id}/webhooks…`: event admins of the event, series owners and organizers of its
 *   series, global admins; other event roles 403; every key kind and the scoped token 403 first.
 * - `/series/{series_id}/webhooks…`: series owners of that series and global admins; organizers
 *   and event roles 403; keys 403; a missing series 404.
 * Run by test/outbound-webhooks/rows.test.ts; the route keys count for test/access/matrix.test.ts.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Table = Record<PrincipalName, string>;

export const EVENT_COLUMNS = ['A:id', 'A:uuid', 'B:id', 'C:id', 'X:id'] as const;
export const SERIES_COLUMNS = ['S1:uuid', 'S1:slug', 'S2:uuid', 'X:uuid'] as const;

// biome-ignore format: the matrix is a hand-aligned literal table
const EVENT: Table = {
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
const SERIES: Table = {
  //                 S1:uuid S1:slug S2:uuid X:uuid
  none:             '401     401     401     401',
  garbage:          '401     401     401     401',
  badChecksum:      '401     401     401     401',
  revokedEventKey:  '401     401     401     401',
  expiredMobile:    '401     401     401     401',
  revokedMobile:    '401     401     401     401',
  expiredGlobal:    '401     401     401     401',
  revokedGlobal:    '401     401     401     401',
  demotedGlobal:    '401     401     401     401',
  participant:      '403     403     403     404',
  readOnly:         '403     403     403     404',
  limited:          '403     403     403     404',
  ops:              '403     403     403     404',
  eventAdmin:       '403     403     403     404',
  safeguarding:     '403     403     403     404',
  seriesOwner:      '200     200     403     404',
  seriesOrganizer:  '403     403     403     404',
  admin:            '200     200     200     404',
  globalToken:      '200     200     200     404',
  scopedToken:      '403     403     403     403',
  seriesKeyS1:      '403     403     403     403',
  seriesKeyS2:      '403     403     403     403',
  eventKeyA:        '403     403     403     403',
  eventKeyB:        '403     403     403     403',
  eventKeyC:        '403     403     403     403',
  legacyKeyA:       '403     403     403     403',
};

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** Route suffixes after `…/webhooks` and the success status of each. */
export const SUFFIXES: { method: Method; suffix: string; ok: number }[] = [
  { method: 'GET', suffix: '', ok: 200 },
  { method: 'POST', suffix: '', ok: 201 },
  { method: 'GET', suffix: '/:id', ok: 200 },
  { method: 'PATCH', suffix: '/:id', ok: 200 },
  { method: 'DELETE', suffix: '/:id', ok: 204 },
  { method: 'POST', suffix: '/:id/rotate_secret', ok: 200 },
  { method: 'POST', suffix: '/:id/ping', ok: 202 },
  { method: 'GET', suffix: '/:id/deliveries', ok: 200 },
  { method: 'POST', suffix: '/:id/deliveries/:delivery_id/redeliver', ok: 202 },
];

const P = '/api/v1';
const SCOPES = [
  { kind: 'event' as const, base: '/events/:event_id/webhooks', table: EVENT, columns: EVENT_COLUMNS },
  { kind: 'series' as const, base: '/series/:series_id/webhooks', table: SERIES, columns: SERIES_COLUMNS },
];
export const outboundWebhookRouteKeys = SCOPES.flatMap((s) =>
  SUFFIXES.map((r) => `${r.method} ${P}${s.base}${r.suffix}`),
);

export interface OutboundWebhookRow {
  kind: 'event' | 'series';
  method: Method;
  suffix: string;
  route: string;
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

function errorFor(kind: 'event' | 'series', principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403)
    return kind === 'series'
      ? 'You do not have access to this series'
      : 'You do not have access to this event';
  if (status === 404) return kind === 'series' ? 'Series not found' : 'Event not found';
  return undefined;
}

export const outboundWebhookRows: OutboundWebhookRow[] = SCOPES.flatMap((scope) =>
  SUFFIXES.flatMap(({ method, suffix, ok }) =>
    PRINCIPALS.flatMap((principal) => {
      const statuses = scope.table[principal].trim().split(/\s+/).map(Number);
      if (statuses.length !== scope.columns.length) throw new Error(`bad row ${scope.kind} ${principal}`);
      return scope.columns.map((target, i) => ({
        kind: scope.kind,
        method,
        suffix,
        route: `${method} ${P}${scope.base}${suffix}`,
        principal,
        target,
        expected: {
          status: statuses[i] === 200 ? ok : statuses[i]!,
          error: errorFor(scope.kind, principal, statuses[i]!),
        },
      }));
    }),
  ),
);
