/**
 * Authorization-matrix rows for GET /email_log (docs/decisions.md "Messaging" in the email
 * log; docs/decisions.md "Credentials and roles"). The spec and contract name no reader of the email log; it records every
 * address Muster mails (sign-in codes included, not only event mail), so it is decided as a global
 * admin read, like the ban list: global admin (mobile) and unscoped global token 200; the
 * `bans:write`-scoped token 403 with its scope message; every other authenticated caller, keys
 * included, 403 `Only global admins can read the email log`, before the query is validated (422).
 * Run by test/webhooks/rows.test.ts.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

export interface EmailLogMatrixRow {
  method: 'GET';
  route: string;
  url: string;
  principal: PrincipalName;
  target: 'list' | 'filtered' | 'invalid';
  expected: { status: number; error?: string };
}

const P = '/api/v1';
const URLS = {
  list: `${P}/email_log`,
  filtered: `${P}/email_log?status=bounced&limit=5`,
  invalid: `${P}/email_log?status=nope`,
};

// biome-ignore format: the matrix is a hand-aligned literal table
const READ: Record<PrincipalName, string> = {
  //                 list filtered invalid
  none:             '401  401      401',
  garbage:          '401  401      401',
  badChecksum:      '401  401      401',
  revokedEventKey:  '401  401      401',
  expiredMobile:    '401  401      401',
  revokedMobile:    '401  401      401',
  expiredGlobal:    '401  401      401',
  revokedGlobal:    '401  401      401',
  demotedGlobal:    '401  401      401',
  participant:      '403  403      403',
  readOnly:         '403  403      403',
  limited:          '403  403      403',
  ops:              '403  403      403',
  eventAdmin:       '403  403      403',
  safeguarding:     '403  403      403',
  seriesOwner:      '403  403      403',
  seriesOrganizer:  '403  403      403',
  admin:            '200  200      422',
  globalToken:      '200  200      422',
  scopedToken:      '403  403      403',
  seriesKeyS1:      '403  403      403',
  seriesKeyS2:      '403  403      403',
  eventKeyA:        '403  403      403',
  eventKeyB:        '403  403      403',
  eventKeyC:        '403  403      403',
  legacyKeyA:       '403  403      403',
};

const ROUTE = `GET ${P}/email_log`;
export const emailLogRouteKeys = [ROUTE];

function errorFor(principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403)
    return principal === 'scopedToken'
      ? 'This token is limited to: bans:write'
      : 'Only global admins can read the email log';
  return undefined;
}

export const emailLogRows: EmailLogMatrixRow[] = PRINCIPALS.flatMap((principal) => {
  const statuses = READ[principal].trim().split(/\s+/).map(Number);
  return (['list', 'filtered', 'invalid'] as const).map((target, i) => ({
    method: 'GET' as const,
    route: ROUTE,
    url: URLS[target],
    principal,
    target,
    expected: { status: statuses[i]!, error: errorFor(principal, statuses[i]!) },
  }));
});

/**
 * GET /email_suppressions and DELETE /email_suppressions/{email} (the suppression list; decided as
 * a global-admin resource like the email log): global admin (mobile) and unscoped global token
 * reach it (200, 422 for a bad query, 404 for an address not on the list); the `bans:write`-scoped
 * token 403 with its scope message; everyone else, keys included, 403 `Only global admins can
 * manage email suppressions`, before the query is validated or the address looked up.
 */
export interface SuppressionMatrixRow {
  method: 'GET' | 'DELETE';
  route: string;
  url: string;
  principal: PrincipalName;
  target: 'list' | 'invalid' | 'missing';
  expected: { status: number; error?: string };
}

const SUPPRESSION_URLS = {
  list: `${P}/email_suppressions`,
  invalid: `${P}/email_suppressions?limit=0`,
  missing: `${P}/email_suppressions/nobody%40example.org`,
};

// biome-ignore format: the matrix is a hand-aligned literal table
const SUPPRESSIONS: Record<PrincipalName, string> = {
  //                 list invalid missing
  none:             '401  401     401',
  garbage:          '401  401     401',
  badChecksum:      '401  401     401',
  revokedEventKey:  '401  401     401',
  expiredMobile:    '401  401     401',
  revokedMobile:    '401  401     401',
  expiredGlobal:    '401  401     401',
  revokedGlobal:    '401  401     401',
  demotedGlobal:    '401  401     401',
  participant:      '403  403     403',
  readOnly:         '403  403     403',
  limited:          '403  403     403',
  ops:              '403  403     403',
  eventAdmin:       '403  403     403',
  safeguarding:     '403  403     403',
  seriesOwner:      '403  403     403',
  seriesOrganizer:  '403  403     403',
  admin:            '200  422     404',
  globalToken:      '200  422     404',
  scopedToken:      '403  403     403',
  seriesKeyS1:      '403  403     403',
  seriesKeyS2:      '403  403     403',
  eventKeyA:        '403  403     403',
  eventKeyB:        '403  403     403',
  eventKeyC:        '403  403     403',
  legacyKeyA:       '403  403     403',
};

const SUPPRESSION_ROUTES = {
  list: `GET ${P}/email_suppressions`,
  invalid: `GET ${P}/email_suppressions`,
  missing: `DELETE ${P}/email_suppressions/:email`,
};
export const suppressionRouteKeys = [SUPPRESSION_ROUTES.list, SUPPRESSION_ROUTES.missing];

function suppressionError(principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403)
    return principal === 'scopedToken'
      ? 'This token is limited to: bans:write'
      : 'Only global admins can manage email suppressions';
  if (status === 404) return 'Suppression not found';
  return undefined;
}

export const suppressionRows: SuppressionMatrixRow[] = PRINCIPALS.flatMap((principal) => {
  const statuses = SUPPRESSIONS[principal].trim().split(/\s+/).map(Number);
  return (['list', 'invalid', 'missing'] as const).map((target, i) => ({
    method: target === 'missing' ? ('DELETE' as const) : ('GET' as const),
    route: SUPPRESSION_ROUTES[target],
    url: SUPPRESSION_URLS[target],
    principal,
    target,
    expected: { status: statuses[i]!, error: suppressionError(principal, statuses[i]!) },
  }));
});
