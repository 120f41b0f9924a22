/**
 * Authorization-matrix rows for email announcements, transcribed from the organiser-operations
 * issue (item 8: "compose a message to an audience … send now or schedule") with the reading the
 * lead's brief names: event admins and above may send — event admins of the event, series roles
 * (owner, organizer) of its series, global admins; the other event roles (ops, safeguarding lead,
 * limited, read_only) 403 — and docs/decisions.md "Status codes and check order" (check order 401 → 403 kind/scope → 404 → 403 reach →
 * 422; an event path segment is a numeric id or UUID), not from src/access. Run by
 * test/organiser/announcements-rows.test.ts; the route keys count for test/access/matrix.test.ts.
 *
 * - Users only: API keys and the bans:write-scoped token 403 before any lookup.
 * - Columns: A (the role holders' event) by id and UUID, sibling B (same series S1), foreign C,
 *   missing X; `A:bad` for callers allowed on A: create/preview with a blank subject (422 `Subject
 *   cannot be blank`), list `?limit=0` (422), one/cancel: C's announcement under A (404
 *   `Announcement not found`).
 * - Cancel of an allowed cell targets an announcement already sent: 409 `Only a scheduled
 *   announcement can be cancelled` (the 200 is tested in test/organiser/announcements.test.ts).
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

const COLUMNS = ['A:id', 'A:uuid', 'B:id', 'C:id', 'X:id', 'A:bad'] as const;
export type AnnouncementTarget = (typeof COLUMNS)[number];

// biome-ignore format: the matrix is a hand-aligned literal table
const MANAGE: Record<PrincipalName, string> = {
  //                 A:id A:uuid B:id C:id X:id A:bad
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
  limited:          '403  403    403  403  404  403',
  ops:              '403  403    403  403  404  403',
  eventAdmin:       '200  200    403  403  404  422',
  safeguarding:     '403  403    403  403  404  403',
  seriesOwner:      '200  200    200  403  404  422',
  seriesOrganizer:  '200  200    200  403  404  422',
  admin:            '200  200    200  200  404  422',
  globalToken:      '200  200    200  200  404  422',
  scopedToken:      '403  403    403  403  403  403',
  seriesKeyS1:      '403  403    403  403  403  403',
  seriesKeyS2:      '403  403    403  403  403  403',
  eventKeyA:        '403  403    403  403  403  403',
  eventKeyB:        '403  403    403  403  403  403',
  eventKeyC:        '403  403    403  403  403  403',
  legacyKeyA:       '403  403    403  403  403  403',
};

const P = '/api/v1';
type Method = 'GET' | 'POST';
type Kind = 'create' | 'preview' | 'list' | 'one' | 'cancel';
const ROUTES: { method: Method; path: string; kind: Kind }[] = [
  { method: 'POST', path: '/events/:event_id/announcements', kind: 'create' },
  { method: 'POST', path: '/events/:event_id/announcements/preview', kind: 'preview' },
  { method: 'GET', path: '/events/:event_id/announcements', kind: 'list' },
  { method: 'GET', path: '/events/:event_id/announcements/:id', kind: 'one' },
  { method: 'POST', path: '/events/:event_id/announcements/:id/cancel', kind: 'cancel' },
];
export const announcementRouteKeys = ROUTES.map((r) => `${r.method} ${P}${r.path}`);

export interface AnnouncementRow {
  method: Method;
  kind: Kind;
  principal: PrincipalName;
  target: AnnouncementTarget;
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

function expected(kind: Kind, principal: PrincipalName, status: number) {
  if (status === 401) return { status, error: 'Unauthorized' };
  if (status === 403 && KEYS.has(principal))
    return { status, error: 'API keys cannot access this endpoint; it requires a user credential' };
  if (status === 403 && principal === 'scopedToken')
    return { status, error: 'This token is limited to: bans:write' };
  if (status === 403) return { status, error: 'You do not have access to this event' };
  if (status === 404) return { status, error: 'Event not found' };
  if (status === 422 && (kind === 'one' || kind === 'cancel'))
    return { status: 404, error: 'Announcement not found' };
  if (status === 422) return { status, error: kind === 'list' ? undefined : 'Subject cannot be blank' };
  if (kind === 'create') return { status: 201, error: undefined };
  if (kind === 'cancel') return { status: 409, error: 'Only a scheduled announcement can be cancelled' };
  return { status, error: undefined };
}

export const announcementRows: AnnouncementRow[] = ROUTES.flatMap(({ method, kind }) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = MANAGE[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== COLUMNS.length) throw new Error(`bad row ${kind} ${principal}`);
    return COLUMNS.map((target, i) => ({
      method,
      kind,
      principal,
      target,
      expected: expected(kind, principal, statuses[i]!),
    }));
  }),
);
