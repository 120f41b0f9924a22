/**
 * Authorization-matrix rows for the editable email wording (issue 16 item 10: "Organisers can edit
 * the wording … per event, with a preview"; docs/email.md), transcribed from the issue and contract
 * §1/§2, not from src/access. Run by test/email/rows.test.ts; the route keys count for the coverage
 * test in test/access/matrix.test.ts.
 *
 * - Who: "organisers" = event admins of the event, series owners and organizers of its series
 *   (docs/decisions.md "Credentials and roles": series roles reach every event of the series), global admins (mobile or unscoped
 *   global token). Other event roles (ops, safeguarding lead, limited, read_only) and participants
 *   403; the bans:write-scoped token 403; API keys 403 before any lookup (a dashboard feature).
 * - `{event_id}`: numeric id or UUID (a slug is 404 after the kind checks), like chat blasts.
 * - Columns: A (own event) by id, UUID, slug; sibling B (same series S1); foreign C (series S2) by
 *   id and UUID; missing X by id and UUID; `A:bad` for callers allowed on A: the list has no bad
 *   input (200), GET/DELETE an unknown template (404 `Email template not found`), PUT a blank subject
 *   (422 `subject cannot be blank`), preview a draft with an unknown placeholder (422).
 */
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

const COLUMNS = ['A:id', 'A:uuid', 'A:slug', 'B:id', 'C:id', 'C:uuid', 'X:id', 'X:uuid', 'A:bad'] as const;
export type EmailTemplateTarget = (typeof COLUMNS)[number];

export interface EmailTemplateRow {
  method: 'GET' | 'PUT' | 'DELETE' | 'POST';
  route: string;
  principal: PrincipalName;
  target: EmailTemplateTarget;
  expected: { status: number; error?: string };
}

// biome-ignore format: the matrix is a hand-aligned literal table
const TABLE: Record<PrincipalName, string> = {
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
  eventAdmin:       '200  200    404    403  403  403    404  404    BAD',
  safeguarding:     '403  403    404    403  403  403    404  404    403',
  seriesOwner:      '200  200    404    200  403  403    404  404    BAD',
  seriesOrganizer:  '200  200    404    200  403  403    404  404    BAD',
  admin:            '200  200    404    200  200  200    404  404    BAD',
  globalToken:      '200  200    404    200  200  200    404  404    BAD',
  scopedToken:      '403  403    403    403  403  403    403  403    403',
  seriesKeyS1:      '403  403    403    403  403  403    403  403    403',
  seriesKeyS2:      '403  403    403    403  403  403    403  403    403',
  eventKeyA:        '403  403    403    403  403  403    403  403    403',
  eventKeyB:        '403  403    403    403  403  403    403  403    403',
  eventKeyC:        '403  403    403    403  403  403    403  403    403',
  legacyKeyA:       '403  403    403    403  403  403    403  403    403',
};

const P = '/api/v1';
const ONE = `${P}/events/:event_id/email_templates/:template`;
export const LIST_ROUTE = `GET ${P}/events/:event_id/email_templates`;
export const GET_ROUTE = `GET ${ONE}`;
export const PUT_ROUTE = `PUT ${ONE}`;
export const DELETE_ROUTE = `DELETE ${ONE}`;
export const PREVIEW_ROUTE = `POST ${ONE}/preview`;
export const emailTemplateRouteKeys = [LIST_ROUTE, GET_ROUTE, PUT_ROUTE, DELETE_ROUTE, PREVIEW_ROUTE];

const KEYS: ReadonlySet<PrincipalName> = new Set([
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
]);

/** What `A:bad` answers a caller allowed on A, per route. */
const BAD: Record<string, { status: number; error?: string }> = {
  [LIST_ROUTE]: { status: 200 },
  [GET_ROUTE]: { status: 404, error: 'Email template not found' },
  [DELETE_ROUTE]: { status: 404, error: 'Email template not found' },
  [PUT_ROUTE]: { status: 422, error: 'subject cannot be blank' },
  [PREVIEW_ROUTE]: {
    status: 422,
    error:
      'Unknown placeholder {{token}}; this email knows {{event_name}}, {{first_name}}, {{expires_at}}, {{support_email}}, {{link}}',
  },
};

function errorFor(principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return 'Unauthorized';
  if (status === 403 && KEYS.has(principal))
    return 'API keys cannot access this endpoint; it requires a user credential';
  if (status === 403 && principal === 'scopedToken') return 'This token is limited to: bans:write';
  if (status === 403) return 'You do not have access to this event';
  if (status === 404) return 'Event not found';
  return undefined;
}

export const emailTemplateRows: EmailTemplateRow[] = emailTemplateRouteKeys.flatMap((route) =>
  PRINCIPALS.flatMap((principal) => {
    const cells = TABLE[principal].trim().split(/\s+/);
    if (cells.length !== COLUMNS.length) throw new Error(`bad row ${route} ${principal}`);
    return COLUMNS.map((target, i) => {
      const cell = cells[i]!;
      const expected =
        cell === 'BAD' ? BAD[route]! : { status: Number(cell), error: errorFor(principal, Number(cell)) };
      return {
        method: route.split(' ')[0] as EmailTemplateRow['method'],
        route,
        principal,
        target,
        expected,
      };
    });
  }),
);

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
const MISSING_ID = '99999999';

/** The request of one row. */
export function requestFor(
  row: EmailTemplateRow,
  world: World,
): { method: EmailTemplateRow['method']; url: string; payload?: Record<string, unknown> } {
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
  const bad = form === 'bad';
  const base = `${P}/events/${segment}/email_templates`;
  if (row.route === LIST_ROUTE) return { method: 'GET', url: base };
  const template =
    bad && (row.route === GET_ROUTE || row.route === DELETE_ROUTE) ? 'newsletter' : 'invitation';
  const url = `${base}/${template}`;
  if (row.route === PUT_ROUTE)
    return {
      method: 'PUT',
      url,
      payload: bad
        ? { subject: '  ', body: 'Hello' }
        : { subject: 'Join {{event_name}}', body: `Hello {{first_name}}, from ${row.principal}.` },
    };
  if (row.route === PREVIEW_ROUTE)
    return {
      method: 'POST',
      url: `${url}/preview`,
      payload: bad ? { subject: 'Hi', body: 'Your code: {{token}}' } : {},
    };
  return { method: row.route === DELETE_ROUTE ? 'DELETE' : 'GET', url };
}
