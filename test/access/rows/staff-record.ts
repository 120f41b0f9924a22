/**
 * Authorization-matrix rows for staff edits, `PATCH /events/{event_id}/participants/{pe}`,
 * transcribed from docs/decisions.md "Staff status changes and edits" (the same sections as the participant's own PATCH;
 * "who may write which section follows who may read it (§2): sensitive sections only global admins
 * and the event's safeguarding leads; PII fields not `limited`; `read_only` nothing"), §2 (roles,
 * keys reach only invite/lookup/roster/travel/setup) and the check order of §1 (401 → 403 kind/scope
 * → 404 event → 403 reach → 404 record → 403 fields → 422 → 409 state), not from src/access.
 * Run by test/registration/staff-record-rows.test.ts; counted by the coverage test in matrix.test.ts.
 *
 * Columns (each a PATCH of the world's registrations):
 * - `A:plain` / `A:slug`: adultA in event A (by id / by slug), a non-sensitive, non-PII field
 *   (`accommodation.notes`);
 * - `A:pii`: adultA's `phone` (PII); `A:sens`: adultA's `dietary_detail.notes` (sensitive);
 * - `A:bad`: adultA with a check-out date before the check-in date (422 for everyone who may write
 *   accommodation);
 * - `A:gone`: a registration id that does not exist; `A:regB`: event B's registration under A (404);
 * - `A:wdrn`: withdrawnA (409 for those allowed: reinstate first);
 * - `B`: regB in event B (same series S1); `C`: regC in event C (series S2); `X`: a missing event.
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

type Table = Record<PrincipalName, string>;
const COLUMNS = [
  'A:plain',
  'A:slug',
  'A:pii',
  'A:sens',
  'A:bad',
  'A:gone',
  'A:regB',
  'A:wdrn',
  'B',
  'C',
  'X',
] as const;
type Column = (typeof COLUMNS)[number];

export interface StaffRecordRow {
  principal: PrincipalName;
  target: Column;
  expected: { status: number; error: string };
}

// biome-ignore format: the matrix is a hand-aligned literal table
const EDIT: Table = {
  //                 A:plain A:slug A:pii A:sens A:bad A:gone A:regB A:wdrn B    C    X
  none:             '401     401    401   401    401   401    401    401    401  401  401',
  garbage:          '401     401    401   401    401   401    401    401    401  401  401',
  badChecksum:      '401     401    401   401    401   401    401    401    401  401  401',
  revokedEventKey:  '401     401    401   401    401   401    401    401    401  401  401',
  expiredMobile:    '401     401    401   401    401   401    401    401    401  401  401',
  revokedMobile:    '401     401    401   401    401   401    401    401    401  401  401',
  expiredGlobal:    '401     401    401   401    401   401    401    401    401  401  401',
  revokedGlobal:    '401     401    401   401    401   401    401    401    401  401  401',
  demotedGlobal:    '401     401    401   401    401   401    401    401    401  401  401',
  participant:      '403     403    403   403    403   403    403    403    403  403  404',
  readOnly:         '403     403    403   403    403   403    403    403    403  403  404',
  limited:          '200     200    403   403    422   404    404    409    403  403  404',
  ops:              '200     200    200   403    422   404    404    409    403  403  404',
  eventAdmin:       '200     200    200   403    422   404    404    409    403  403  404',
  safeguarding:     '200     200    200   200    422   404    404    409    403  403  404',
  seriesOwner:      '200     200    200   403    422   404    404    409    200  403  404',
  seriesOrganizer:  '200     200    200   403    422   404    404    409    200  403  404',
  admin:            '200     200    200   200    422   404    404    409    200  200  404',
  globalToken:      '200     200    200   200    422   404    404    409    200  200  404',
  scopedToken:      '403     403    403   403    403   403    403    403    403  403  403',
  seriesKeyS1:      '403     403    403   403    403   403    403    403    403  403  403',
  seriesKeyS2:      '403     403    403   403    403   403    403    403    403  403  403',
  eventKeyA:        '403     403    403   403    403   403    403    403    403  403  403',
  eventKeyB:        '403     403    403   403    403   403    403    403    403  403  403',
  eventKeyC:        '403     403    403   403    403   403    403    403    403  403  403',
  legacyKeyA:       '403     403    403   403    403   403    403    403    403  403  403',
};

export const STAFF_RECORD_PATCH = 'PATCH /api/v1/events/:event_id/participants/:participant_event_id';
export const staffRecordRouteKeys = [STAFF_RECORD_PATCH];

const KEYS = new Set<PrincipalName>([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);
const BAD_MESSAGE = 'accommodation.check_out_date must not be before accommodation.check_in_date';

function errorFor(principal: PrincipalName, status: number, target: Column): string {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  // Field refusals come after the reach check: only for users with participants access on A.
  const onA = !['participant', 'readOnly'].includes(principal);
  if (status === 403 && onA && target === 'A:pii') return 'You may not edit: phone';
  if (status === 403 && onA && target === 'A:sens') return 'You may not edit: dietary_detail';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404) return target === 'X' ? 'Event not found' : 'Participant not found for this event';
  if (status === 409) return 'This registration is withdrawn and can no longer be edited';
  if (status === 422) return BAD_MESSAGE;
  return '';
}

export const staffRecordRows: StaffRecordRow[] = PRINCIPALS.flatMap((principal) => {
  const statuses = EDIT[principal].trim().split(/\s+/).map(Number);
  if (statuses.length !== COLUMNS.length) throw new Error(`bad row ${principal}`);
  return COLUMNS.map((target, i) => {
    const status = statuses[i]!;
    return { principal, target, expected: { status, error: errorFor(principal, status, target) } };
  });
});

/** The 422 body's problems for the `A:bad` column. */
export const BAD_PROBLEMS = [{ field: 'accommodation.check_out_date', message: BAD_MESSAGE }];

/** The request of one row: method, URL and JSON payload. */
export function staffRecordRequest(row: StaffRecordRow, world: World) {
  const { A, B, C } = world.events;
  const { adultA, withdrawnA, regB, regC } = world.regs;
  const [event, reg] = {
    'A:plain': [String(A.id), adultA.id],
    'A:slug': [A.slug, adultA.id],
    'A:pii': [String(A.id), adultA.id],
    'A:sens': [String(A.id), adultA.id],
    'A:bad': [String(A.id), adultA.id],
    'A:gone': [String(A.id), 99999999],
    'A:regB': [String(A.id), regB.id],
    'A:wdrn': [String(A.id), withdrawnA.id],
    B: [String(B.id), regB.id],
    C: [String(C.id), regC.id],
    X: ['99999999', adultA.id],
  }[row.target] as [string, number];
  const payload = {
    'A:pii': { phone: '+447700900555' },
    'A:sens': { dietary_detail: { notes: 'Edited by the matrix' } },
    'A:bad': { accommodation: { check_in_date: '2026-07-10', check_out_date: '2026-07-01' } },
  }[row.target as string] ?? { accommodation: { notes: 'Edited by the matrix' } };
  return {
    method: 'PATCH' as const,
    url: `/api/v1/events/${event}/participants/${reg}`,
    payload,
  };
}
