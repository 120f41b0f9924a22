/**
 * Authorization-matrix rows for the guardian portal (docs/decisions.md "Guardian portal" "Guardian portal (token is the
 * credential)", "Expired token → 410"; §1 status codes), transcribed from the contract, not from
 * src/access. Run by test/guardian/rows.test.ts; the route keys count for the coverage test in
 * matrix.test.ts.
 *
 * The routes are public with respect to bearer credentials: the token in the path is the
 * credential, so every principal (no header, garbage, revoked, keys, admins…) gets the same answer
 * per column — a bad Authorization header is NOT a 401 here.
 * Columns: `valid` = a live link of the minor's primary guardian; `unknown` = a well-formed token
 * no guardian has; `malformed` = `short`; `expired` = a link past its 7 days; `bad` = PATCH with an
 * invalid body on the live link (422); `unanswered` = complete on a live link whose required
 * permissions are not answered (422); sign: `foreign` = a live link naming a consent of another
 * registration (404), `bad` = a live link, the child's waiver, no signature name (422). Rows are rate limited per IP, so each names its own address.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Column = 'valid' | 'unknown' | 'malformed' | 'expired' | 'bad' | 'unanswered' | 'foreign';

export interface GuardianRow {
  method: 'GET' | 'PATCH' | 'POST';
  route: string;
  principal: PrincipalName;
  target: Column;
  remoteAddress: string;
  /** `problems`: the field problems a 422 of an invalid PATCH body lists beside `error`. */
  expected: { status: number; error?: string; problems?: { field: string; message: string }[] };
}

const P = '/api/v1';
export const PORTAL_GET = `GET ${P}/guardian/:token`;
export const PORTAL_PATCH = `PATCH ${P}/guardian/:token`;
export const PORTAL_COMPLETE = `POST ${P}/guardian/:token/complete`;
export const PORTAL_SIGN = `POST ${P}/guardian/:token/consents/:consent_id/sign`;
export const guardianPortalRouteKeys = [PORTAL_GET, PORTAL_PATCH, PORTAL_COMPLETE, PORTAL_SIGN];

const NOT_FOUND = 'Guardian link not found';
const EXPIRED = 'This guardian link has expired; ask the participant or the event team for a new one';

const COLUMNS: Record<string, [Column, number, string | undefined][]> = {
  [PORTAL_GET]: [
    ['valid', 200, undefined],
    ['unknown', 404, NOT_FOUND],
    ['malformed', 404, NOT_FOUND],
    ['expired', 410, EXPIRED],
  ],
  [PORTAL_PATCH]: [
    ['valid', 200, undefined],
    ['bad', 422, 'media_permission must be one of "granted", "denied"'],
    ['unknown', 404, NOT_FOUND],
    ['expired', 410, EXPIRED],
  ],
  [PORTAL_COMPLETE]: [
    [
      'unanswered',
      422,
      'Answer these permissions before completing: media_permission, photo_permission, travel_permission, emergency_medical_consent',
    ],
    ['unknown', 404, NOT_FOUND],
    ['malformed', 404, NOT_FOUND],
    ['expired', 410, EXPIRED],
  ],
  [PORTAL_SIGN]: [
    ['foreign', 404, 'Consent not found'],
    ['bad', 422, 'signature_name is required'],
    ['unknown', 404, NOT_FOUND],
    ['expired', 410, EXPIRED],
  ],
};

let address = 0;
const nextAddress = () => {
  address += 1;
  return `198.51.${100 + Math.floor(address / 250)}.${(address % 250) + 1}`;
};

export const guardianRows: GuardianRow[] = Object.entries(COLUMNS).flatMap(([route, columns]) =>
  PRINCIPALS.flatMap((principal) =>
    columns.map(([target, status, error]) => ({
      method: route.split(' ')[0] as GuardianRow['method'],
      route,
      principal,
      target,
      remoteAddress: nextAddress(),
      expected:
        route === PORTAL_PATCH && status === 422 && error
          ? { status, error, problems: [{ field: 'media_permission', message: error }] }
          : { status, error },
    })),
  ),
);

export interface GuardianTokens {
  valid: string;
  unanswered: string;
  expired: string;
  /** The child's waiver, and a consent of another registration. */
  ownConsent: number;
  foreignConsent: number;
}

/** The request of one row. */
export function guardianRequest(row: GuardianRow, tokens: GuardianTokens) {
  const token = {
    valid: tokens.valid,
    bad: tokens.valid,
    unanswered: tokens.unanswered,
    expired: tokens.expired,
    foreign: tokens.valid,
    unknown: 'u'.repeat(43),
    malformed: 'short',
  }[row.target];
  if (row.route === PORTAL_SIGN) {
    const consent = row.target === 'foreign' ? tokens.foreignConsent : tokens.ownConsent;
    const payload = row.target === 'bad' ? {} : { signature_name: 'Gina Guardian' };
    return { method: row.method, url: `${P}/guardian/${token}/consents/${consent}/sign`, payload };
  }
  const url = `${P}/guardian/${token}${row.route === PORTAL_COMPLETE ? '/complete' : ''}`;
  if (row.method !== 'PATCH') return { method: row.method, url };
  const payload = row.target === 'bad' ? { media_permission: 'maybe' } : { otc_medication_consent: 'denied' };
  return { method: row.method, url, payload };
}
