/**
 * Authorization-matrix rows for the registration routes, transcribed from the spec
 * ("POST /events/{event_id}/participants (invite)": event API key of that event or series API key
 * of its series) and the contract (§1 event path segment and check order, §2 roles and reach, §4
 * invite callers "event key of the event, series key of its series, or a user with participants
 * access", §8 participant side and staff withdraw/reinstate/reject "event admins and above"), not
 * from src/access. Run by test/registration/rows.test.ts; the route keys count for the coverage
 * test in test/access/matrix.test.ts.
 *
 * - Invite: `{event_id}` id, UUID or slug. `A:bad` = an invalid email (422 for those allowed on A).
 *   Every failure except 401 carries `success:false` (spec failure body).
 * - Participant side (§8 "A participant signs in like any user"): any signed-in user with a mobile
 *   token, on their OWN registrations (someone else's → 403 `This is not your registration`, after the 404 for an unknown id: docs/decisions.md "Status codes and check order"); global API
 *   tokens 403 (a participant credential is a mobile token — decision, documented), keys 403.
 *   The world's `participant` owns adultA (complete). Cells that would change state use an
 *   invalid body or a refused move, so every refused cell is replayable.
 * - Staff withdraw/reinstate/reject (§2 "scan contexts' management and staff
 *   withdraw/reinstate/reject: event_admin, series roles, global admin"): `{event_id}` id or UUID
 *   only (a slug is 404: not a participants endpoint in §1's list); keys 403 before the lookup.
 *   `A:nopart` = a registration of B under A (404); `A:bad` = a reason over 1,000 characters (422).
 *   Every 200 cell acts on its own fresh registration (the runner creates them).
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

// Participant side: one column per route (and target).
const SELF_COLUMNS = [
  'tickets',
  'ticket:own',
  'ticket:missing',
  'start:bad',
  'submit:own',
  'withdraw:own',
  'sign:own',
];

// biome-ignore format: the matrix is a hand-aligned literal table
const SELF: Table = {
  //                 tickets ticket:own ticket:missing start:bad submit:own withdraw:own sign:own
  none:             '401     401        401            401       401        401          401',
  garbage:          '401     401        401            401       401        401          401',
  badChecksum:      '401     401        401            401       401        401          401',
  revokedEventKey:  '401     401        401            401       401        401          401',
  expiredMobile:    '401     401        401            401       401        401          401',
  revokedMobile:    '401     401        401            401       401        401          401',
  expiredGlobal:    '401     401        401            401       401        401          401',
  revokedGlobal:    '401     401        401            401       401        401          401',
  demotedGlobal:    '401     401        401            401       401        401          401',
  participant:      '200     200        404            422       422        422          422',
  readOnly:         '200     403        404            422       403        403          403',
  limited:          '200     403        404            422       403        403          403',
  ops:              '200     403        404            422       403        403          403',
  eventAdmin:       '200     403        404            422       403        403          403',
  safeguarding:     '200     403        404            422       403        403          403',
  seriesOwner:      '200     403        404            422       403        403          403',
  seriesOrganizer:  '200     403        404            422       403        403          403',
  admin:            '200     403        404            422       403        403          403',
  globalToken:      '403     403        403            403       403        403          403',
  scopedToken:      '403     403        403            403       403        403          403',
  seriesKeyS1:      '403     403        403            403       403        403          403',
  seriesKeyS2:      '403     403        403            403       403        403          403',
  eventKeyA:        '403     403        403            403       403        403          403',
  eventKeyB:        '403     403        403            403       403        403          403',
  eventKeyC:        '403     403        403            403       403        403          403',
  legacyKeyA:       '403     403        403            403       403        403          403',
};

const STAFF_COLUMNS = [
  'A:id',
  'A:uuid',
  'A:slug',
  'B:id',
  'C:id',
  'C:uuid',
  'X:id',
  'X:uuid',
  'A:nopart',
  'A:bad',
];

// biome-ignore format: the matrix is a hand-aligned literal table
const STAFF: Table = {
  //                 A:id A:uuid A:slug B:id C:id C:uuid X:id X:uuid A:nopart A:bad
  none:             '401  401    401    401  401  401    401  401    401      401',
  garbage:          '401  401    401    401  401  401    401  401    401      401',
  badChecksum:      '401  401    401    401  401  401    401  401    401      401',
  revokedEventKey:  '401  401    401    401  401  401    401  401    401      401',
  expiredMobile:    '401  401    401    401  401  401    401  401    401      401',
  revokedMobile:    '401  401    401    401  401  401    401  401    401      401',
  expiredGlobal:    '401  401    401    401  401  401    401  401    401      401',
  revokedGlobal:    '401  401    401    401  401  401    401  401    401      401',
  demotedGlobal:    '401  401    401    401  401  401    401  401    401      401',
  participant:      '403  403    404    403  403  403    404  404    403      403',
  readOnly:         '403  403    404    403  403  403    404  404    403      403',
  limited:          '403  403    404    403  403  403    404  404    403      403',
  ops:              '403  403    404    403  403  403    404  404    403      403',
  eventAdmin:       '200  200    404    403  403  403    404  404    404      422',
  safeguarding:     '403  403    404    403  403  403    404  404    403      403',
  seriesOwner:      '200  200    404    200  403  403    404  404    404      422',
  seriesOrganizer:  '200  200    404    200  403  403    404  404    404      422',
  admin:            '200  200    404    200  200  200    404  404    404      422',
  globalToken:      '200  200    404    200  200  200    404  404    404      422',
  scopedToken:      '403  403    403    403  403  403    403  403    403      403',
  seriesKeyS1:      '403  403    403    403  403  403    403  403    403      403',
  seriesKeyS2:      '403  403    403    403  403  403    403  403    403      403',
  eventKeyA:        '403  403    403    403  403  403    403  403    403      403',
  eventKeyB:        '403  403    403    403  403  403    403  403    403      403',
  eventKeyC:        '403  403    403    403  403  403    403  403    403      403',
  legacyKeyA:       '403  403    403    403  403  403    403  403    403      403',
};

const P = '/api/v1';
const INVITE_ROUTE = `POST ${P}/events/:event_id/participants`;
const SELF_ROUTES: Record<string, string> = {
  tickets: `GET ${P}/tickets`,
  ticket: `GET ${P}/tickets/:participant_event_id`,
  start: `POST ${P}/registrations`,
  submit: `POST ${P}/registrations/:participant_event_id/submit`,
  withdraw: `POST ${P}/registrations/:participant_event_id/withdraw`,
  sign: `POST ${P}/consents/:id/sign`,
};
export const STAFF_ACTIONS = ['withdraw', 'reinstate', 'reject'] as const;
const staffRoute = (action: string) =>
  `POST ${P}/events/:event_id/participants/:participant_event_id/${action}`;
export const registrationRouteKeys: string[] = [
  INVITE_ROUTE,
  ...Object.values(SELF_ROUTES),
  ...STAFF_ACTIONS.map(staffRoute),
];

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

const MOBILE_ONLY = 'This endpoint requires a mobile token';
const NOT_YOURS = 'This is not your registration';
const KEY_DENIED = 'API keys cannot access this endpoint; it requires a user credential';

function denial(principal: PrincipalName, status: number): Record<string, unknown> | undefined {
  if (status === 401) return { error: 'Unauthorized' };
  if (status === 403 && principal === 'scopedToken') return { error: 'This token is limited to: bans:write' };
  if (status === 403 && KEYS.has(principal)) return { error: KEY_DENIED };
  return undefined;
}

const SELF_422: Record<string, string> = {
  start: 'Invalid invitation token',
  submit: 'Only a registration in progress can be submitted (it is complete)',
  withdraw: 'body.reason must NOT have more than 1000 characters',
  sign: 'body.signature_name is required',
};

function selfRows(): RegistrationRow[] {
  return PRINCIPALS.flatMap((principal) => {
    const statuses = SELF[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== SELF_COLUMNS.length) throw new Error(`bad self row ${principal}`);
    return SELF_COLUMNS.map((column, i) => {
      const status = statuses[i]!;
      const kind = column.split(':')[0]!;
      const route = SELF_ROUTES[kind]!;
      let body = denial(principal, status);
      // A mobile token on someone else's registration: outside reach (docs/decisions.md "Status codes and check order": 404, then 403).
      if (status === 403 && !body) body = { error: principal === 'globalToken' ? MOBILE_ONLY : NOT_YOURS };
      if (status === 404) body = { error: kind === 'sign' ? 'Consent not found' : 'Registration not found' };
      if (status === 422) body = { error: SELF_422[kind]! };
      return {
        method: route.startsWith('GET') ? 'GET' : 'POST',
        route,
        principal,
        target: column,
        expected: { status, body },
      };
    });
  });
}

function staffBody(
  principal: PrincipalName,
  target: string,
  status: number,
): Record<string, unknown> | undefined {
  const denied = denial(principal, status);
  if (denied) return denied;
  if (status === 403) return { error: 'You do not have access to this event' };
  if (status === 404)
    return { error: target === 'A:nopart' ? 'Participant not found for this event' : 'Event not found' };
  if (status === 422) return { error: 'body.reason must NOT have more than 1000 characters' };
  return undefined; // 200: checked by the runner against the fresh registration
}

export const registrationRows: RegistrationRow[] = [
  ...expand('POST', INVITE_ROUTE, INVITE, INVITE_COLUMNS, inviteBody),
  ...selfRows(),
  ...STAFF_ACTIONS.flatMap((a) => expand('POST', staffRoute(a), STAFF, STAFF_COLUMNS, staffBody)),
];

/** The staff action of a row (or null for other routes). */
export function staffActionOf(row: RegistrationRow): (typeof STAFF_ACTIONS)[number] | null {
  return STAFF_ACTIONS.find((a) => row.route === staffRoute(a)) ?? null;
}

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
const MISSING_ID = '99999999';
const MISSING_SLUG = 'no-such-event';

function eventSegment(target: string, world: World): string {
  const [name, form] = target.split(':') as ['A' | 'B' | 'C' | 'X', string];
  if (name === 'X') return form === 'uuid' ? MISSING_UUID : form === 'slug' ? MISSING_SLUG : MISSING_ID;
  const event = world.events[name];
  return form === 'uuid' ? event.uuid : form === 'slug' ? event.slug : String(event.id);
}

export interface RowFixtures {
  /** A consent of the participant's own registration (adultA). */
  ownConsentId: number;
  /** Fresh registrations for the staff 200 cells, by `route principal target`. */
  fresh: Map<string, number>;
}

export const rowKey = (row: RegistrationRow) => `${row.route} ${row.principal} ${row.target}`;

/** The request of one row. */
export function requestFor(
  row: RegistrationRow,
  world: World,
  fx: RowFixtures,
): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> } {
  const own = world.regs.adultA.id;
  const long = 'x'.repeat(1001);
  switch (row.target) {
    case 'tickets':
      return { method: 'GET', url: `${P}/tickets` };
    case 'ticket:own':
      return { method: 'GET', url: `${P}/tickets/${own}` };
    case 'ticket:missing':
      return { method: 'GET', url: `${P}/tickets/99999999` };
    case 'start:bad':
      return { method: 'POST', url: `${P}/registrations`, payload: { invitation_token: 'not-a-token' } };
    case 'submit:own':
      return { method: 'POST', url: `${P}/registrations/${own}/submit` };
    case 'withdraw:own':
      return { method: 'POST', url: `${P}/registrations/${own}/withdraw`, payload: { reason: long } };
    case 'sign:own':
      return { method: 'POST', url: `${P}/consents/${fx.ownConsentId}/sign`, payload: {} };
  }
  const segment = eventSegment(row.target, world);
  const action = staffActionOf(row);
  if (action) {
    const [name, form] = row.target.split(':') as ['A' | 'B' | 'C' | 'X', string];
    const byEvent = { A: world.regs.adultA.id, B: world.regs.regB.id, C: world.regs.regC.id, X: 1 };
    const reg = fx.fresh.get(rowKey(row)) ?? (form === 'nopart' ? world.regs.regB.id : byEvent[name]);
    const payload = form === 'bad' ? { reason: long } : { reason: 'matrix' };
    return { method: 'POST', url: `${P}/events/${segment}/participants/${reg}/${action}`, payload };
  }
  const email = row.target === 'A:bad' ? 'not-an-email' : inviteEmail(row.principal, row.target);
  return { method: 'POST', url: `${P}/events/${segment}/participants`, payload: { email } };
}
