/**
 * Authorization-matrix rows for the participant's own record, `GET|PATCH
 * /registrations/{participant_event_id}`, transcribed from docs/decisions.md "Registration side" ("the caller's own record")
 * with the check order of docs/decisions.md "Status codes and check order" (401 → 403 kind/scope → 404 → 403 reach → 422 → action)
 * and §2 ("Everything else answers 403 to a key"), not from src/access. Run by
 * test/registration/rows.test.ts; the route keys count for the coverage test in matrix.test.ts.
 *
 * Columns: `mine` = the world's adult registration in event A, whose person is linked to the
 * `participant` user (nobody else's own); `other` = the minor's registration (linked to nobody);
 * `missing` = an id that does not exist; `malformed` = `abc` (names no record: 404);
 * `mine:bad` = PATCH `mine` with an invalid body (GET reads it like `mine`).
 * The participant side is for the participant's app: a mobile token only (a global API token is
 * an integration's credential, 403 before any lookup). Being staff does not make a registration yours: staff, series roles and global admins get 403
 * here (they read participants through /events/{e}/participants/{id}).
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

type Table = Record<PrincipalName, string>;
const COLUMNS = ['mine', 'other', 'missing', 'malformed', 'mine:bad'] as const;
type Column = (typeof COLUMNS)[number];

export interface RecordRow {
  method: 'GET' | 'PATCH';
  route: string;
  principal: PrincipalName;
  target: Column;
  /** `problems`: the field problems a 422 of an invalid body lists beside `error`. */
  expected: { status: number; error?: string; problems?: { field: string; message: string }[] };
}

// biome-ignore format: the matrix is a hand-aligned literal table
const RECORD: Table = {
  //                 mine other missing malformed mine:bad
  none:             '401  401   401     401       401',
  garbage:          '401  401   401     401       401',
  badChecksum:      '401  401   401     401       401',
  revokedEventKey:  '401  401   401     401       401',
  expiredMobile:    '401  401   401     401       401',
  revokedMobile:    '401  401   401     401       401',
  expiredGlobal:    '401  401   401     401       401',
  revokedGlobal:    '401  401   401     401       401',
  demotedGlobal:    '401  401   401     401       401',
  participant:      '200  403   404     404       422',
  readOnly:         '403  403   404     404       403',
  limited:          '403  403   404     404       403',
  ops:              '403  403   404     404       403',
  eventAdmin:       '403  403   404     404       403',
  safeguarding:     '403  403   404     404       403',
  seriesOwner:      '403  403   404     404       403',
  seriesOrganizer:  '403  403   404     404       403',
  admin:            '403  403   404     404       403',
  globalToken:      '403  403   403     403       403',
  scopedToken:      '403  403   403     403       403',
  seriesKeyS1:      '403  403   403     403       403',
  seriesKeyS2:      '403  403   403     403       403',
  eventKeyA:        '403  403   403     403       403',
  eventKeyB:        '403  403   403     403       403',
  eventKeyC:        '403  403   403     403       403',
  legacyKeyA:       '403  403   403     403       403',
};

const P = '/api/v1';
export const RECORD_GET = `GET ${P}/registrations/:participant_event_id`;
export const RECORD_PATCH = `PATCH ${P}/registrations/:participant_event_id`;
export const recordRouteKeys = [RECORD_GET, RECORD_PATCH];

const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function errorFor(principal: PrincipalName, status: number, target: Column, method: string) {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403 && principal === 'globalToken') return 'This endpoint requires a mobile token';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  if (status === 403) return 'This is not your registration';
  if (status === 404) return 'Registration not found';
  if (status === 422 && target === 'mine:bad' && method === 'PATCH')
    return 'personal.date_of_birth must be a valid date (YYYY-MM-DD) or null';
  return undefined;
}

function expand(method: 'GET' | 'PATCH', route: string): RecordRow[] {
  return PRINCIPALS.flatMap((principal) => {
    const statuses = RECORD[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== COLUMNS.length) throw new Error(`bad row ${principal}`);
    return COLUMNS.map((target, i) => {
      const status = target === 'mine:bad' && method === 'GET' ? statuses[0]! : statuses[i]!;
      const error = errorFor(principal, status, target, method);
      const problems =
        status === 422 && error ? [{ field: 'personal.date_of_birth', message: error }] : undefined;
      return {
        method,
        route,
        principal,
        target,
        expected: { status, error, ...(problems ? { problems } : {}) },
      };
    });
  });
}

export const recordRows: RecordRow[] = [...expand('GET', RECORD_GET), ...expand('PATCH', RECORD_PATCH)];

/** The request of one row. A valid PATCH changes only the t-shirt size (idempotent). */
export function recordRequest(row: RecordRow, world: World) {
  const id = {
    mine: String(world.regs.adultA.id),
    'mine:bad': String(world.regs.adultA.id),
    other: String(world.regs.minorA.id),
    missing: '99999999',
    malformed: 'abc',
  }[row.target];
  const url = `${P}/registrations/${id}`;
  if (row.method === 'GET') return { method: 'GET' as const, url };
  const payload =
    row.target === 'mine:bad'
      ? { personal: { date_of_birth: '1990-02-30' } }
      : { personal: { tshirt_size: 'L' } };
  return { method: 'PATCH' as const, url, payload };
}
