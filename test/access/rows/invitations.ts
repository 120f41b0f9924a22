/**
 * Authorization-matrix rows for the pending-invitation routes and the guardian resend, transcribed
 * from the staff-dashboard issue (item 6), the spec/contract's invite callers (§4 "event key of the
 * event, series key of its series, or a user with participants access") and docs/decisions.md "Status codes and check order" (check
 * order 401 → 403 kind/scope → 404 → 403 reach), not from src/access. Run by
 * test/registration/invitations-rows.test.ts; the route keys count for test/access/matrix.test.ts.
 *
 * Decisions (docs/organiser-api.md "Invitations"):
 * - list / resend / revoke: the same callers as the invite (whoever may invite may manage what they
 *   sent): event key of the event, series key of its series, users with participants access
 *   (`read_only` 403). `{event_id}`: id, UUID or slug (a participants endpoint).
 * - guardian resend: users with participants access only; API keys 403 before any lookup (a
 *   registration's guardians are not for integrations, like the participants detail).
 * - `A:other`: an invitation (guardian) of another event (registration) addressed under A → 404
 *   `Invitation not found` (`Guardian not found`) for those allowed on A.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Table = Record<PrincipalName, string>;

export const LIST_COLUMNS = ['A:id', 'A:uuid', 'A:slug', 'B:id', 'C:id', 'X:id'] as const;
export const BY_ID_COLUMNS = [...LIST_COLUMNS, 'A:other'] as const;
export const GUARDIAN_COLUMNS = ['A:id', 'A:slug', 'B:id', 'C:id', 'X:id', 'A:other'] as const;

// biome-ignore format: the matrix is a hand-aligned literal table
const BY_ID: Table = {
  //                 A:id A:uuid A:slug B:id C:id X:id A:other
  none:             '401  401    401    401  401  401  401',
  garbage:          '401  401    401    401  401  401  401',
  badChecksum:      '401  401    401    401  401  401  401',
  revokedEventKey:  '401  401    401    401  401  401  401',
  expiredMobile:    '401  401    401    401  401  401  401',
  revokedMobile:    '401  401    401    401  401  401  401',
  expiredGlobal:    '401  401    401    401  401  401  401',
  revokedGlobal:    '401  401    401    401  401  401  401',
  demotedGlobal:    '401  401    401    401  401  401  401',
  participant:      '403  403    403    403  403  404  403',
  readOnly:         '403  403    403    403  403  404  403',
  limited:          '200  200    200    403  403  404  404',
  ops:              '200  200    200    403  403  404  404',
  eventAdmin:       '200  200    200    403  403  404  404',
  safeguarding:     '200  200    200    403  403  404  404',
  seriesOwner:      '200  200    200    200  403  404  404',
  seriesOrganizer:  '200  200    200    200  403  404  404',
  admin:            '200  200    200    200  200  404  404',
  globalToken:      '200  200    200    200  200  404  404',
  scopedToken:      '403  403    403    403  403  403  403',
  seriesKeyS1:      '200  200    200    200  403  404  404',
  seriesKeyS2:      '403  403    403    403  200  404  403',
  eventKeyA:        '200  200    200    403  403  404  404',
  eventKeyB:        '403  403    403    200  403  404  403',
  eventKeyC:        '403  403    403    403  200  404  403',
  legacyKeyA:       '200  200    200    403  403  404  404',
};

// biome-ignore format: the matrix is a hand-aligned literal table
const GUARDIAN: Table = {
  //                 A:id A:slug B:id C:id X:id A:other
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
  limited:          '200  200    403  403  404  404',
  ops:              '200  200    403  403  404  404',
  eventAdmin:       '200  200    403  403  404  404',
  safeguarding:     '200  200    403  403  404  404',
  seriesOwner:      '200  200    200  403  404  404',
  seriesOrganizer:  '200  200    200  403  404  404',
  admin:            '200  200    200  200  404  404',
  globalToken:      '200  200    200  200  404  404',
  scopedToken:      '403  403    403  403  403  403',
  seriesKeyS1:      '403  403    403  403  403  403',
  seriesKeyS2:      '403  403    403  403  403  403',
  eventKeyA:        '403  403    403  403  403  403',
  eventKeyB:        '403  403    403  403  403  403',
  eventKeyC:        '403  403    403  403  403  403',
  legacyKeyA:       '403  403    403  403  403  403',
};

const P = '/api/v1';
export type InvitationRouteName = 'list' | 'resend' | 'revoke' | 'guardian';
const ROUTES: Record<InvitationRouteName, string> = {
  list: `GET ${P}/events/:event_id/invitations`,
  resend: `POST ${P}/events/:event_id/invitations/:id/resend`,
  revoke: `POST ${P}/events/:event_id/invitations/:id/revoke`,
  guardian: `POST ${P}/events/:event_id/participants/:participant_event_id/guardians/:id/resend`,
};
export const invitationRouteKeys = Object.values(ROUTES);

export interface InvitationRow {
  name: InvitationRouteName;
  route: string;
  principal: PrincipalName;
  target: string;
  expected: { status: number; error?: string };
}

const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function errorFor(name: InvitationRouteName, principal: PrincipalName, status: number, target: string) {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403 && KEYS.has(principal))
    return name === 'guardian'
      ? 'API keys cannot access this endpoint; it requires a user credential'
      : 'This API key cannot access this event';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404 && target === 'A:other')
    return name === 'guardian' ? 'Guardian not found' : 'Invitation not found';
  if (status === 404) return 'Event not found';
  return undefined;
}

function rowsOf(name: InvitationRouteName, table: Table, columns: readonly string[]): InvitationRow[] {
  return PRINCIPALS.flatMap((principal) => {
    const statuses = table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== columns.length) throw new Error(`bad row ${name} ${principal}`);
    return columns.map((target, i) => ({
      name,
      route: ROUTES[name],
      principal,
      target,
      expected: { status: statuses[i]!, error: errorFor(name, principal, statuses[i]!, target) },
    }));
  });
}

/** The list shares the resend/revoke table without the `A:other` column. */
const LIST: Table = Object.fromEntries(
  PRINCIPALS.map((p) => [p, BY_ID[p].trim().split(/\s+/).slice(0, LIST_COLUMNS.length).join(' ')]),
) as Table;

export const invitationRows: InvitationRow[] = [
  ...rowsOf('list', LIST, LIST_COLUMNS),
  ...rowsOf('resend', BY_ID, BY_ID_COLUMNS),
  ...rowsOf('revoke', BY_ID, BY_ID_COLUMNS),
  ...rowsOf('guardian', GUARDIAN, GUARDIAN_COLUMNS),
];
