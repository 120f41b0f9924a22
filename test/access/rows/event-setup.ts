/**
 * Authorization-matrix rows for the event setup content routes (consent documents, logo and banner
 * upload), transcribed from the organiser-operations issue (item 5: "event admins and above, like
 * the event update route") and docs/decisions.md "Status codes and check order" (check order 401 → 403 kind/scope → 404 → 403 reach →
 * 422), §2 (roles; a series key reaches the events of its series). Not derived from src/access.
 * Run by test/setup/rows.test.ts; the route keys count for the coverage test in
 * test/access/matrix.test.ts.
 *
 * - Users: global admins everywhere, series owners/organizers on their series' events, `event_admin`
 *   on their event; other event roles and participants 403.
 * - Keys: the series key of the event's series (like PATCH /series/{s}/events/{e}); event API
 *   keys (and the legacy key) 403 before any lookup; the bans:write-scoped token 403.
 * - `{event_id}` is a numeric id or UUID: A's slug is 404 for everyone who gets that far.
 * - Columns: A (the role holders' event, S1) by id, UUID and slug; sibling B (S1); foreign C (S2);
 *   missing X; `A:bad` = an invalid request on A (PUT only: an empty title / no file part → 422).
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Table = Record<PrincipalName, string>;
export const COLUMNS = ['A:id', 'A:uuid', 'A:slug', 'B:id', 'C:uuid', 'X:id', 'A:bad'] as const;

// biome-ignore format: the matrix is a hand-aligned literal table
const MANAGE: Table = {
  //                 A:id A:uuid A:slug B:id C:uuid X:id A:bad
  none:             '401  401    401    401  401    401  401',
  garbage:          '401  401    401    401  401    401  401',
  badChecksum:      '401  401    401    401  401    401  401',
  revokedEventKey:  '401  401    401    401  401    401  401',
  expiredMobile:    '401  401    401    401  401    401  401',
  revokedMobile:    '401  401    401    401  401    401  401',
  expiredGlobal:    '401  401    401    401  401    401  401',
  revokedGlobal:    '401  401    401    401  401    401  401',
  demotedGlobal:    '401  401    401    401  401    401  401',
  participant:      '403  403    404    403  403    404  403',
  readOnly:         '403  403    404    403  403    404  403',
  limited:          '403  403    404    403  403    404  403',
  ops:              '403  403    404    403  403    404  403',
  eventAdmin:       '200  200    404    403  403    404  422',
  safeguarding:     '403  403    404    403  403    404  403',
  seriesOwner:      '200  200    404    200  403    404  422',
  seriesOrganizer:  '200  200    404    200  403    404  422',
  admin:            '200  200    404    200  200    404  422',
  globalToken:      '200  200    404    200  200    404  422',
  scopedToken:      '403  403    403    403  403    403  403',
  seriesKeyS1:      '200  200    404    200  403    404  422',
  seriesKeyS2:      '403  403    404    403  200    404  403',
  eventKeyA:        '403  403    403    403  403    403  403',
  eventKeyB:        '403  403    403    403  403    403  403',
  eventKeyC:        '403  403    403    403  403    403  403',
  legacyKeyA:       '403  403    403    403  403    403  403',
};

const P = '/api/v1';
type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
const ROUTES: { method: Method; path: string }[] = [
  { method: 'GET', path: '/events/:event_id/consent_documents' },
  { method: 'PUT', path: '/events/:event_id/consent_documents/:consent_type' },
  // Custom consent documents (issue #25 part 7): the same callers; success is 201 / 204.
  { method: 'POST', path: '/events/:event_id/consent_documents' },
  { method: 'DELETE', path: '/events/:event_id/consent_documents/:consent_type' },
  { method: 'PUT', path: '/events/:event_id/images/:kind' },
  { method: 'DELETE', path: '/events/:event_id/images/:kind' },
];
export const eventSetupRouteKeys = ROUTES.map((r) => `${r.method} ${P}${r.path}`);
/**
 * The uploaded images, public (no credential: the invitation page and emails show them to anyone
 * with the URL, which names the bytes); pinned by test/setup/images.test.ts.
 */
export const mediaRouteKeys = ['GET /media/:file'];

export interface EventSetupRow {
  method: Method;
  route: string;
  path: string;
  principal: PrincipalName;
  target: (typeof COLUMNS)[number];
  expected: { status: number; error: string | undefined };
}

const EVENT_KEYS = new Set<PrincipalName>(['eventKeyA', 'eventKeyB', 'eventKeyC', 'legacyKeyA']);

function errorFor(path: string, principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403 && EVENT_KEYS.has(principal)) return 'Event API keys cannot access series endpoints';
  if (status === 403 && principal.startsWith('seriesKey')) return 'This API key cannot access this event';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404) return 'Event not found';
  if (status === 422)
    return path.includes('images')
      ? 'Send the image as a multipart/form-data field named file'
      : 'title is required';
  return undefined;
}

export const eventSetupRows: EventSetupRow[] = ROUTES.flatMap(({ method, path }) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = MANAGE[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== COLUMNS.length) throw new Error(`bad row ${path} ${principal}`);
    return COLUMNS.flatMap((target, i) => {
      // GET and DELETE have no body to get wrong.
      if (target === 'A:bad' && (method === 'GET' || method === 'DELETE')) return [];
      const listed = statuses[i]!;
      const custom = path.includes('consent_documents') && listed === 200;
      const status = custom && method === 'POST' ? 201 : custom && method === 'DELETE' ? 204 : listed;
      return [
        {
          method,
          route: `${method} ${P}${path}`,
          path,
          principal,
          target,
          expected: { status, error: errorFor(path, principal, status) },
        },
      ];
    });
  }),
);
