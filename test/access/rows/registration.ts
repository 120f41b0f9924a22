/**
 * Authorization-matrix rows for the registration routes (issue 4), transcribed from the spec
 * ("POST /events/{event_id}/participants (invite)": event API key of that event or series API key
 * of its series) and the contract (§1 event path segment and check order, §2 roles and reach, §4
 * invite callers "event key of the event, series key of its series, or a user with participants
 * access", §8 participant side and staff withdraw/reinstate/reject "event admins and above"), not
 * from src/access. Run by test/registration/rows.test.ts; the route keys count for the coverage
 * test in test/access/matrix.test.ts.
 *
 * - Invite: `{event_id}` id, UUID or slug. `A:bad` = an invalid email (422 for those allowed on A).
 *   Every failure except 401 carries `success:false` (spec failure body).
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

type Table = Record<PrincipalName, string>;

export interface RegistrationRow {
  method: 'GET' | 'POST';
  route: string;
  principal: PrincipalName;
  target: string;
  expected: { status: number; body?: Record<string, unknown> };
}

const INVITE_COLUMNS = [
  'A:id',
  'A:uuid',
  'A:slug',
  'B:id',
  'B:slug',
  'C:id',
  'C:uuid',
  'X:id',
  'X:uuid',
  'X:slug',
  'A:bad',
];

// biome-ignore format: the matrix is a hand-aligned literal table
const INVITE: Table = {
  //                 A:id A:uuid A:slug B:id B:slug C:id C:uuid X:id X:uuid X:slug A:bad
  none:             '401  401    401    401  401    401  401    401  401    401    401',
  garbage:          '401  401    401    401  401    401  401    401  401    401    401',
  badChecksum:      '401  401    401    401  401    401  401    401  401    401    401',
  revokedEventKey:  '401  401    401    401  401    401  401    401  401    401    401',
  expiredMobile:    '401  401    401    401  401    401  401    401  401    401    401',
  revokedMobile:    '401  401    401    401  401    401  401    401  401    401    401',
  expiredGlobal:    '401  401    401    401  401    401  401    401  401    401    401',
  revokedGlobal:    '401  401    401    401  401    401  401    401  401    401    401',
  demotedGlobal:    '401  401    401    401  401    401  401    401  401    401    401',
  participant:      '403  403    403    403  403    403  403    404  404    404    403',
  readOnly:         '403  403    403    403  403    403  403    404  404    404    403',
  limited:          '201  201    201    403  403    403  403    404  404    404    422',
  ops:              '201  201    201    403  403    403  403    404  404    404    422',
  eventAdmin:       '201  201    201    403  403    403  403    404  404    404    422',
  safeguarding:     '201  201    201    403  403    403  403    404  404    404    422',
  seriesOwner:      '201  201    201    201  201    403  403    404  404    404    422',
  seriesOrganizer:  '201  201    201    201  201    403  403    404  404    404    422',
  admin:            '201  201    201    201  201    201  201    404  404    404    422',
  globalToken:      '201  201    201    201  201    201  201    404  404    404    422',
  scopedToken:      '403  403    403    403  403    403  403    403  403    403    403',
  seriesKeyS1:      '201  201    201    201  201    403  403    404  404    404    422',
  seriesKeyS2:      '403  403    403    403  403    201  201    404  404    404    403',
  eventKeyA:        '201  201    201    403  403    403  403    404  404    404    422',
  eventKeyB:        '403  403    403    201  201    403  403    404  404    404    403',
  eventKeyC:        '403  403    403    403  403    201  201    404  404    404    403',
  legacyKeyA:       '201  201    201    403  403    403  403    404  404    404    422',
};

const P = '/api/v1';
const INVITE_ROUTE = `POST ${P}/events/:event_id/participants`;
export const registrationRouteKeys: string[] = [INVITE_ROUTE];

const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

function inviteBody(principal: PrincipalName, target: string, status: number): Record<string, unknown> {
  if (status === 401) return { error: 'Unauthorized' };
  const fail = (error: string) => ({ success: false, error });
  if (status === 403 && principal === 'scopedToken') return fail('This token is limited to: bans:write');
  if (status === 403 && KEYS.has(principal)) return fail('This API key cannot access this event');
  if (status === 403) return fail('You do not have access to this event');
  if (status === 404) return fail('Event not found');
  if (status === 422) return fail('Invalid email format');
  const name = { A: 'Summit Alpha', B: 'Summit Beta', C: 'Foreign Gamma' }[target[0] as 'A' | 'B' | 'C'];
  return { success: true, message: `Invitation sent to ${inviteEmail(principal, target)}`, event: name };
}

function inviteEmail(principal: PrincipalName, target: string): string {
  return `inv-${principal}-${target.replace(':', '-')}@example.com`.toLowerCase();
}

function expand(
  method: 'GET' | 'POST',
  route: string,
  table: Table,
  columns: string[],
  body: (p: PrincipalName, target: string, status: number) => Record<string, unknown> | undefined,
): RegistrationRow[] {
  return PRINCIPALS.flatMap((principal) => {
    const statuses = table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== columns.length) throw new Error(`bad row ${route} ${principal}`);
    return columns.map((target, i) => ({
      method,
      route,
      principal,
      target,
      expected: { status: statuses[i]!, body: body(principal, target, statuses[i]!) },
    }));
  });
}

export const registrationRows: RegistrationRow[] = [
  ...expand('POST', INVITE_ROUTE, INVITE, INVITE_COLUMNS, inviteBody),
];

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
const MISSING_ID = '99999999';
const MISSING_SLUG = 'no-such-event';

function eventSegment(target: string, world: World): string {
  const [name, form] = target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  if (name === 'X') return form === 'uuid' ? MISSING_UUID : form === 'slug' ? MISSING_SLUG : MISSING_ID;
  const event = world.events[name];
  return form === 'uuid' ? event.uuid : form === 'slug' ? event.slug : String(event.id);
}

/** The request of one row. */
export function requestFor(
  row: RegistrationRow,
  world: World,
): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> } {
  const segment = eventSegment(row.target, world);
  const email = row.target === 'A:bad' ? 'not-an-email' : inviteEmail(row.principal, row.target);
  return { method: 'POST', url: `${P}/events/${segment}/participants`, payload: { email } };
}
