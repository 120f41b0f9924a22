/**
 * Authorization-matrix rows for check-in (spec "Authentication": "Notes, scans, scan contexts,
 * chat blasts, NFC badges" → 403 for both key kinds; docs/decisions.md "Status codes and check order" roles, §5),
 * transcribed from the spec and the contract, not from src/access. Run by test/checkin/rows.test.ts;
 * the route keys count for the coverage test in test/access/matrix.test.ts.
 *
 * - Reads (GET scan_contexts, GET scans, GET scans/stream): event access = global admin, any event role (read_only
 *   included), or a series role on the event's series.
 * - Writes at the door (POST scans, POST scans/bulk, DELETE scans/{id}): event access except
 *   read_only.
 * - Keys (series, event, legacy) and the bans:write-scoped token: 403 before the target is looked
 *   up. `{event_id}` is a numeric id or UUID only: a slug is 404 (after 401/403 kind, before reach).
 *
 * Columns: A (own event of the role holders) by id, UUID and slug; sibling B (same series S1);
 * foreign C (series S2) by id and UUID; missing X by id and UUID; `A:bad`: event A with an invalid
 * body or query (422 for those allowed on A).
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

const COLUMNS = ['A:id', 'A:uuid', 'A:slug', 'B:id', 'C:id', 'C:uuid', 'X:id', 'X:uuid', 'A:bad'] as const;
export type CheckinTarget = (typeof COLUMNS)[number];

export interface CheckinMatrixRow {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify route key, e.g. `POST /api/v1/events/:event_id/scans`. */
  route: string;
  principal: PrincipalName;
  target: CheckinTarget;
  expected: { status: number; error?: string };
}

type Table = Record<PrincipalName, string>;

// biome-ignore format: the matrix is a hand-aligned literal table
const READ: Table = {
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
  readOnly:         '200  200    404    403  403  403    404  404    422',
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

// biome-ignore format: the matrix is a hand-aligned literal table
const WRITE: Table = {
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

/**
 * Scan context management (POST, PATCH, DELETE): event_admin of the event, series roles, global
 * admins. `200` in this table reads `201` for POST (a create). `A:bad`: POST `{}`, PATCH
 * `{checks_in:"yes"}`, DELETE of A's only check-in context (422 for those allowed).
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const MANAGE: Table = {
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
  limited:          '403  403    404    403  403  403    404  404    403',
  ops:              '403  403    404    403  403  403    404  404    403',
  eventAdmin:       '200  200    404    403  403  403    404  404    422',
  safeguarding:     '403  403    404    403  403  403    404  404    403',
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

/**
 * NFC badges (ensure, confirm, reset): writes at the door (not read_only), and the event's NFC
 * module must be on: B has it on, A and C off (422 `NFC badges are not enabled for this event` for
 * callers allowed there, after the 404 and 403 steps). `A:bad`: A again (module off, 422).
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const NFC: Table = {
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
  limited:          '422  422    404    403  403  403    404  404    422',
  ops:              '422  422    404    403  403  403    404  404    422',
  eventAdmin:       '422  422    404    403  403  403    404  404    422',
  safeguarding:     '422  422    404    403  403  403    404  404    422',
  seriesOwner:      '422  422    404    200  403  403    404  404    422',
  seriesOrganizer:  '422  422    404    200  403  403    404  404    422',
  admin:            '422  422    404    200  422  422    404  404    422',
  globalToken:      '422  422    404    200  422  422    404  404    422',
  scopedToken:      '403  403    403    403  403  403    403  403    403',
  seriesKeyS1:      '403  403    403    403  403  403    403  403    403',
  seriesKeyS2:      '403  403    403    403  403  403    403  403    403',
  eventKeyA:        '403  403    403    403  403  403    403  403    403',
  eventKeyB:        '403  403    403    403  403  403    403  403    403',
  eventKeyC:        '403  403    403    403  403  403    403  403    403',
  legacyKeyA:       '403  403    403    403  403  403    403  403    403',
};

const P = '/api/v1';
const ROUTES: { method: CheckinMatrixRow['method']; route: string; table: Table }[] = [
  { method: 'GET', route: `GET ${P}/events/:event_id/scan_contexts`, table: READ },
  { method: 'GET', route: `GET ${P}/events/:event_id/scans`, table: READ },
  // The live feed is authorised exactly like GET /scans. `A:bad`: a scan_context_id
  // of another event (422).
  { method: 'GET', route: `GET ${P}/events/:event_id/scans/stream`, table: READ },
  { method: 'POST', route: `POST ${P}/events/:event_id/scans`, table: WRITE },
  { method: 'POST', route: `POST ${P}/events/:event_id/scans/bulk`, table: WRITE },
  { method: 'DELETE', route: `DELETE ${P}/events/:event_id/scans/:id`, table: WRITE },
  { method: 'POST', route: `POST ${P}/events/:event_id/scan_contexts`, table: MANAGE },
  { method: 'PATCH', route: `PATCH ${P}/events/:event_id/scan_contexts/:id`, table: MANAGE },
  { method: 'DELETE', route: `DELETE ${P}/events/:event_id/scan_contexts/:id`, table: MANAGE },
  { method: 'POST', route: `POST ${P}/events/:event_id/participant_events/:pe/nfc_badge/ensure`, table: NFC },
  {
    method: 'POST',
    route: `POST ${P}/events/:event_id/participant_events/:pe/nfc_badge/confirm`,
    table: NFC,
  },
  { method: 'POST', route: `POST ${P}/events/:event_id/participant_events/:pe/nfc_badge/reset`, table: NFC },
];

export const checkinRouteKeys: string[] = ROUTES.map((r) => r.route);

const UNAUTHORIZED = 'Unauthorized';
const KEY_DENIED = 'API keys cannot access this endpoint; it requires a user credential';
const SCOPED = 'This token is limited to: bans:write';
const NO_EVENT_ACCESS = 'You do not have access to this event';
const EVENT_NOT_FOUND = 'Event not found';
const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function errorFor(route: string, principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return UNAUTHORIZED;
  if (status === 403 && KEYS.has(principal)) return KEY_DENIED;
  if (status === 403 && principal === 'scopedToken') return SCOPED;
  if (status === 403) return NO_EVENT_ACCESS;
  if (status === 404) return EVENT_NOT_FOUND;
  if (status === 422 && route.includes('/nfc_badge/')) return 'NFC badges are not enabled for this event';
  return undefined;
}

export const checkinRows: CheckinMatrixRow[] = ROUTES.flatMap(({ method, route, table }) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== COLUMNS.length) throw new Error(`bad row ${route} ${principal}`);
    return COLUMNS.map((target, i) => {
      // GET scan_contexts takes no input: its `A:bad` cell (an unknown query parameter) is A:id's.
      const column = target === 'A:bad' && route === `GET ${P}/events/:event_id/scan_contexts` ? 0 : i;
      const listed = statuses[column]!;
      const status = listed === 200 && route === `POST ${P}/events/:event_id/scan_contexts` ? 201 : listed;
      return {
        method,
        route,
        principal,
        target,
        expected: { status, error: errorFor(route, principal, status) },
      };
    });
  }),
);

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
const MISSING_ID = '99999999';

/** Key of a row's own fixture context (allowed DELETE scan_contexts cells). */
export const fixtureKey = (row: Pick<CheckinMatrixRow, 'principal' | 'target'>) =>
  `${row.principal}|${row.target}`;

/** Event of a row's target (null for the missing event X). */
export function targetEvent(row: CheckinMatrixRow, world: World) {
  const name = row.target.split(':')[0] as 'A' | 'B' | 'C' | 'X';
  return name === 'X' ? null : world.events[name];
}

/**
 * The request of one row: URL with the target segment, and a body valid for that event.
 * `fixtures`: context ids created for the allowed DELETE scan_contexts cells (by fixtureKey).
 */
export function requestFor(
  row: CheckinMatrixRow,
  world: World,
  fixtures: ReadonlyMap<string, number> = new Map(),
): { method: CheckinMatrixRow['method']; url: string; payload?: Record<string, unknown> } {
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
  const reg = { A: world.regs.adultA.id, B: world.regs.regB.id, C: world.regs.regC.id, X: 1 }[name];
  const context = {
    A: world.contexts.lunchA,
    B: world.contexts.checkInB,
    C: world.contexts.checkInC,
    X: 1,
  }[name];
  const bad = form === 'bad';
  const base = `${P}/events/${segment}`;
  const clientScanId = `matrix-${row.route}-${row.principal}-${row.target}`;
  if (row.route.includes('/nfc_badge/')) {
    const op = row.route.slice(row.route.lastIndexOf('/') + 1);
    return {
      method: 'POST',
      url: `${base}/participant_events/${reg}/nfc_badge/${op}`,
      ...(op === 'confirm' ? { payload: {} } : {}),
    };
  }
  if (row.route.includes('/scan_contexts') && row.method !== 'GET') {
    if (row.method === 'POST') {
      const name = `Matrix ${row.principal} ${row.target}`;
      return { method: 'POST', url: `${base}/scan_contexts`, payload: bad ? {} : { name } };
    }
    if (row.method === 'PATCH') {
      const payload = bad ? { checks_in: 'yes' } : { position: 7 };
      return { method: 'PATCH', url: `${base}/scan_contexts/${context}`, payload };
    }
    const own = fixtures.get(fixtureKey(row));
    const id = bad ? world.contexts.checkInA : (own ?? context);
    return { method: 'DELETE', url: `${base}/scan_contexts/${id}` };
  }
  if (row.route.endsWith('/scan_contexts')) {
    // GET scan_contexts takes no input: the `bad` column is a query parameter it does not know.
    return {
      method: 'GET',
      url: bad ? `${base}/scan_contexts?scan_context_id=abc` : `${base}/scan_contexts`,
    };
  }
  if (row.route.endsWith('/scans/stream')) {
    const query = bad ? `?scan_context_id=${world.contexts.checkInC}` : '';
    return { method: 'GET', url: `${base}/scans/stream${query}` };
  }
  if (row.method === 'GET')
    return { method: 'GET', url: bad ? `${base}/scans?since=yesterday` : `${base}/scans` };
  if (row.method === 'DELETE') {
    const query = bad ? `?scan_context_id=${world.contexts.checkInC}` : `?scan_context_id=${context}`;
    return { method: 'DELETE', url: `${base}/scans/${reg}${query}` };
  }
  const item = { participant_id: reg, scan_context_id: context, client_scan_id: clientScanId };
  if (row.route.endsWith('/bulk')) {
    return { method: 'POST', url: `${base}/scans/bulk`, payload: bad ? { scans: [{}] } : { scans: [item] } };
  }
  return { method: 'POST', url: `${base}/scans`, payload: bad ? { participant_id: reg, extra: 1 } : item };
}
