/**
 * Authorization-matrix rows for chat blasts, transcribed from the spec ("Chat blasts": closed to
 * event and series API keys with 403, it needs a caller who is a user; "Authentication": "Notes,
 * scans, scan contexts, chat blasts, NFC badges" → 403 for both key kinds) and the contract (§1
 * event path segment = numeric id or UUID, check order; §2 "chat blasts: any event access except
 * read_only"; §6 Messaging), not from src/access. Run by test/messaging/rows.test.ts; the route keys
 * count for the coverage test in test/access/matrix.test.ts.
 *
 * - Every chat-blast route: global admin (mobile or unscoped global token), a series role on the
 *   event's series, or an event role other than read_only. read_only-only users and users without
 *   a role get 403; keys and the bans:write-scoped token 403 before any lookup.
 * - `{event_id}` is a numeric id or UUID: a slug is 404 (after 401/403 kind, before reach).
 * - Columns: A (own event of the role holders) by id, UUID and slug; sibling B (same series S1);
 *   foreign C (series S2) by id and UUID; missing X by id and UUID; `A:bad`: POST a blank message
 *   (422 `Message cannot be blank`), GET list `?limit=0` (422), GET one: C's blast under A (404
 *   `Chat blast not found`) — for callers allowed on A.
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

const COLUMNS = ['A:id', 'A:uuid', 'A:slug', 'B:id', 'C:id', 'C:uuid', 'X:id', 'X:uuid', 'A:bad'] as const;
export type ChatBlastTarget = (typeof COLUMNS)[number];

export interface ChatBlastRow {
  method: 'GET' | 'POST';
  route: string;
  principal: PrincipalName;
  target: ChatBlastTarget;
  expected: { status: number; error?: string };
}

type Table = Record<PrincipalName, string>;

// biome-ignore format: the matrix is a hand-aligned literal table
const BLASTS: Table = {
  //                 A:id A:uuid A:slug B:id C:id C:uuid X:id X:uuid A:bad
  none:             '401  401    401    401  401  401    401  401    401',
  garbage:          '401  401    401    401  401  401    401  401    401',
  badChecksum:      '401  401    401    401  401  401    401  401    401',
  revokedEventKey:  '401  401    401    401  401  401    401  401    401',
  expiredMobile:    '401  401    401    401  401  401    401  401    401',
  revokedMobile:    '401  401    401    401  401  401    401  401    401',
  expiredGlobal:    '401  401    401    401  401  401    401  401    401',
  revokedGlobal:    '401  401    401    401  401  401    401  401    401',
  demotedGlobal:    '401  401    401    401  401  401    401  401    401',
  participant:      '403  403    404    403  403  403    404  404    403',
  readOnly:         '403  403    404    403  403  403    404  404    403',
  limited:          '200  200    404    403  403  403    404  404    422',
  ops:              '200  200    404    403  403  403    404  404    422',
  eventAdmin:       '200  200    404    403  403  403    404  404    422',
  safeguarding:     '200  200    404    403  403  403    404  404    422',
  seriesOwner:      '200  200    404    200  403  403    404  404    422',
  seriesOrganizer:  '200  200    404    200  403  403    404  404    422',
  admin:            '200  200    404    200  200  200    404  404    422',
  globalToken:      '200  200    404    200  200  200    404  404    422',
  scopedToken:      '403  403    403    403  403  403    403  403    403',
  seriesKeyS1:      '403  403    403    403  403  403    403  403    403',
  seriesKeyS2:      '403  403    403    403  403  403    403  403    403',
  eventKeyA:        '403  403    403    403  403  403    403  403    403',
  eventKeyB:        '403  403    403    403  403  403    403  403    403',
  eventKeyC:        '403  403    403    403  403  403    403  403    403',
  legacyKeyA:       '403  403    403    403  403  403    403  403    403',
};

const P = '/api/v1';
const POST_ROUTE = `POST ${P}/events/:event_id/chat_blasts`;
const LIST_ROUTE = `GET ${P}/events/:event_id/chat_blasts`;
const ONE_ROUTE = `GET ${P}/events/:event_id/chat_blasts/:id`;
export const chatBlastRouteKeys = [POST_ROUTE, LIST_ROUTE, ONE_ROUTE];

const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function errorFor(route: string, principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404) return 'Event not found';
  if (status === 422 && route === POST_ROUTE) return 'Message cannot be blank';
  return undefined;
}

export const chatBlastRows: ChatBlastRow[] = chatBlastRouteKeys.flatMap((route) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = BLASTS[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== COLUMNS.length) throw new Error(`bad row ${route} ${principal}`);
    return COLUMNS.map((target, i) => {
      let status = statuses[i]!;
      let error = errorFor(route, principal, status);
      // GET one's `A:bad` is another event's blast: 404 for those allowed on A.
      if (route === ONE_ROUTE && status === 422) {
        status = 404;
        error = 'Chat blast not found';
      }
      if (status === 200 && route === POST_ROUTE) status = 201;
      return {
        method: route.startsWith('GET') ? 'GET' : 'POST',
        route,
        principal,
        target,
        expected: { status, error },
      };
    });
  }),
);

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
const MISSING_ID = '99999999';

/** The request of one row. `blasts`: an existing blast id per event (fixtures of the runner). */
export function requestFor(
  row: ChatBlastRow,
  world: World,
  blasts: Record<'A' | 'B' | 'C', number>,
): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> } {
  const [name, form] = row.target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  const event = name === 'X' ? null : world.events[name];
  const segment =
    event === null
      ? form === 'uuid'
        ? MISSING_UUID
        : MISSING_ID
      : form === 'uuid'
        ? event.uuid
        : form === 'slug'
          ? event.slug
          : String(event.id);
  const base = `${P}/events/${segment}/chat_blasts`;
  const bad = form === 'bad';
  if (row.route === POST_ROUTE)
    return { method: 'POST', url: base, payload: { message: bad ? '   ' : `Matrix ${row.principal}` } };
  if (row.route === LIST_ROUTE) return { method: 'GET', url: bad ? `${base}?limit=0` : base };
  const id = bad ? blasts.C : name === 'X' ? 1 : blasts[name];
  return { method: 'GET', url: `${base}/${id}` };
}
