/**
 * Authorization-matrix rows for subject access and erasure, transcribed from issue 31 ("a global
 * admin (or a safeguarding lead for their event) exports … and erases a person"; "the participant
 * can download their own data") and docs/privacy.md, with the spec's check order (401 → 403 kind →
 * 404 event → 403 reach → 404 participant → 422), not from src/access. Run by test/privacy/rows.test.ts.
 *
 * Columns: `A:id`, `A:slug` (adultA of event A), `B:id` (regB), `C:id` (regC), `X:id` (no such
 * event), `A:nopart` (regB under event A: not a registration of A). Erase rows send a wrong
 * `confirm_email`, so an allowed caller gets 422 and nothing is erased; `200` below means allowed.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Table = Record<PrincipalName, string>;
export const PRIVACY_COLUMNS = ['A:id', 'A:slug', 'B:id', 'C:id', 'X:id', 'A:nopart'] as const;

const REFUSED_BY_CREDENTIAL = {
  none: '401  401    401  401  401  401',
  garbage: '401  401    401  401  401  401',
  badChecksum: '401  401    401  401  401  401',
  revokedEventKey: '401  401    401  401  401  401',
  expiredMobile: '401  401    401  401  401  401',
  revokedMobile: '401  401    401  401  401  401',
  expiredGlobal: '401  401    401  401  401  401',
  revokedGlobal: '401  401    401  401  401  401',
  demotedGlobal: '401  401    401  401  401  401',
  scopedToken: '403  403    403  403  403  403',
  seriesKeyS1: '403  403    403  403  403  403',
  seriesKeyS2: '403  403    403  403  403  403',
  eventKeyA: '403  403    403  403  403  403',
  eventKeyB: '403  403    403  403  403  403',
  eventKeyC: '403  403    403  403  403  403',
  legacyKeyA: '403  403    403  403  403  403',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const STAFF: Table = {
  ...REFUSED_BY_CREDENTIAL,
  //                 A:id A:slug B:id C:id X:id A:nopart
  participant:      '403  403    403  403  404  403',
  readOnly:         '403  403    403  403  404  403',
  limited:          '403  403    403  403  404  403',
  ops:              '403  403    403  403  404  403',
  eventAdmin:       '403  403    403  403  404  403',
  safeguarding:     '200  200    403  403  404  404',
  seriesOwner:      '403  403    403  403  404  403',
  seriesOrganizer:  '403  403    403  403  404  403',
  admin:            '200  200    200  200  404  404',
  globalToken:      '200  200    200  200  404  404',
};

/** `GET /me/data-export`: any signed-in user; one column (no target). */
// biome-ignore format: the matrix is a hand-aligned literal table
const OWN: Table = {
  none: '401', garbage: '401', badChecksum: '401', revokedEventKey: '401', expiredMobile: '401',
  revokedMobile: '401', expiredGlobal: '401', revokedGlobal: '401', demotedGlobal: '401',
  participant: '200', readOnly: '200', limited: '200', ops: '200', eventAdmin: '200', safeguarding: '200',
  seriesOwner: '200', seriesOrganizer: '200', admin: '200', globalToken: '200', scopedToken: '403',
  seriesKeyS1: '403', seriesKeyS2: '403', eventKeyA: '403', eventKeyB: '403', eventKeyC: '403', legacyKeyA: '403',
};

const P = '/api/v1';
export type PrivacyMethod = 'GET' | 'POST';
const EXPORT = '/events/:event_id/participants/:participant_event_id/data-export';
const ERASE = '/events/:event_id/participants/:participant_event_id/erase';
const OWN_EXPORT = '/me/data-export';
export const privacyRouteKeys = [`GET ${P}${EXPORT}`, `POST ${P}${ERASE}`, `GET ${P}${OWN_EXPORT}`];

export interface PrivacyRow {
  method: PrivacyMethod;
  route: string;
  path: string;
  principal: PrincipalName;
  target: (typeof PRIVACY_COLUMNS)[number] | 'me';
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

function errorFor(principal: PrincipalName, status: number, target: string): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404)
    return target === 'A:nopart' ? 'Participant not found for this event' : 'Event not found';
  if (status === 422) return 'confirm_email must be the person’s email address';
  return undefined;
}

const staffRows = (method: PrivacyMethod, path: string, allowed: number): PrivacyRow[] =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = STAFF[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== PRIVACY_COLUMNS.length) throw new Error(`bad row ${path} ${principal}`);
    return PRIVACY_COLUMNS.map((target, i) => {
      const status = statuses[i] === 200 ? allowed : (statuses[i] as number);
      return {
        method,
        route: `${method} ${P}${path}`,
        path,
        principal,
        target,
        expected: { status, error: errorFor(principal, status, target) },
      };
    });
  });

export const privacyRows: PrivacyRow[] = [
  ...staffRows('GET', EXPORT, 200),
  ...staffRows('POST', ERASE, 422),
  ...PRINCIPALS.map((principal): PrivacyRow => {
    const status = Number(OWN[principal]);
    return {
      method: 'GET',
      route: `GET ${P}${OWN_EXPORT}`,
      path: OWN_EXPORT,
      principal,
      target: 'me',
      expected: { status, error: errorFor(principal, status, 'me') },
    };
  }),
];
