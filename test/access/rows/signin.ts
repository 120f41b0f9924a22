/**
 * Authorization-matrix rows for the sign-in routes (docs/decisions.md "Account and sessions"), transcribed from
 * the contract, not from src/access. To be wired into test/access/matrix.test.ts;
 * test/signin/rows.test.ts runs them on their own meanwhile.
 *
 * Every sign-in route is public: the Authorization header plays no part, so each column answers the
 * same to every principal (a bad or revoked credential is NOT a 401 here). The rows ask for JSON
 * (`Accept: application/json`), so refusals are the usual `{error}` envelope; the sign-in page
 * itself is HTML. No upstream OpenID Connect provider is configured in the matrix world, so its two
 * routes are 404. The rows need the default OAuth client `muster-mobile` (ensureDefaultClients).
 * Sign-in routes are rate limited per IP, so every row names its own client address
 * (`remoteAddress`); `unknown` code requests use a per-principal address (per-address limits).
 *
 * Each row: { method, route (Fastify route key, for the coverage test), url, headers, payload?,
 * principal, target, remoteAddress, expected: { status, error?, contentType } }.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

type Target =
  | 'valid'
  | 'unknown_client'
  | 'bad_param'
  | 'unknown_address'
  | 'bad_address'
  | 'unknown_request'
  | 'unconfigured'
  | 'unknown_code'
  | 'invalid';

export interface SigninMatrixRow {
  method: 'GET' | 'POST';
  /** Fastify route key, e.g. `POST /api/v1/session`. */
  route: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  principal: PrincipalName;
  target: Target;
  remoteAddress: string;
  expected: { status: number; error?: string; contentType: 'html' | 'json' | 'none' };
}

const P = '/api/v1';
const INVALID_SESSION = 'Invalid session or user not found';
const NOT_CONFIGURED = 'Sign-in with an external provider is not configured';
const DEAD_CODE = 'This code can no longer be used. Request a new one.';

const CLIENT = {
  response_type: 'code',
  client_id: 'muster-mobile',
  redirect_uri: 'muster://oauth/callback',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'matrix',
};
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
const JSON_BODY = { 'content-type': 'application/json', accept: 'application/json' };
const ACCEPT_JSON = { accept: 'application/json' };

interface Column {
  target: Target;
  url: string;
  headers: Record<string, string>;
  payload?: (p: PrincipalName) => string;
  expected: SigninMatrixRow['expected'];
}

interface RouteDef {
  method: SigninMatrixRow['method'];
  route: string;
  columns: Column[];
}

const ROUTES: RouteDef[] = [
  {
    method: 'GET',
    route: `GET ${P}/oauth/authorize`,
    columns: [
      {
        target: 'valid',
        url: `${P}/oauth/authorize?${query(CLIENT)}`,
        headers: { accept: 'text/html' },
        expected: { status: 200, contentType: 'html' },
      },
      {
        target: 'unknown_client',
        url: `${P}/oauth/authorize?${query({ ...CLIENT, client_id: 'nope' })}`,
        headers: ACCEPT_JSON,
        expected: { status: 400, error: 'This sign-in link names an unknown app.', contentType: 'json' },
      },
      {
        target: 'bad_param',
        url: `${P}/oauth/authorize?${query({ ...CLIENT, code_challenge_method: 'plain' })}`,
        headers: ACCEPT_JSON,
        expected: { status: 302, contentType: 'none' },
      },
    ],
  },
  {
    method: 'POST',
    route: `POST ${P}/oauth/authorize/email`,
    columns: [
      {
        target: 'unknown_address',
        url: `${P}/oauth/authorize/email`,
        headers: FORM,
        payload: (p) => query({ ...CLIENT, email: `matrix-${p.toLowerCase()}@signin.test` }),
        expected: { status: 200, contentType: 'html' },
      },
      {
        target: 'bad_address',
        url: `${P}/oauth/authorize/email`,
        headers: FORM,
        payload: () => query({ ...CLIENT, email: 'not-an-address' }),
        expected: {
          status: 422,
          error: 'Enter a valid email address, like name@example.org.',
          contentType: 'json',
        },
      },
    ],
  },
  {
    method: 'POST',
    route: `POST ${P}/oauth/authorize/verify`,
    columns: [
      {
        target: 'unknown_request',
        url: `${P}/oauth/authorize/verify`,
        headers: FORM,
        payload: () => query({ request_id: '00000000-0000-4000-8000-000000000000', code: '123456' }),
        expected: { status: 400, error: DEAD_CODE, contentType: 'json' },
      },
    ],
  },
  {
    method: 'POST',
    route: `POST ${P}/oauth/authorize/oidc`,
    columns: [
      {
        target: 'unconfigured',
        url: `${P}/oauth/authorize/oidc`,
        headers: FORM,
        payload: () => query(CLIENT),
        expected: { status: 404, error: NOT_CONFIGURED, contentType: 'json' },
      },
    ],
  },
  {
    method: 'GET',
    route: `GET ${P}/oauth/oidc/callback`,
    columns: [
      {
        target: 'unconfigured',
        url: `${P}/oauth/oidc/callback?code=abc&state=def`,
        headers: ACCEPT_JSON,
        expected: { status: 404, error: NOT_CONFIGURED, contentType: 'json' },
      },
    ],
  },
  {
    method: 'POST',
    route: `POST ${P}/session`,
    columns: [
      {
        target: 'unknown_code',
        url: `${P}/session`,
        headers: JSON_BODY,
        payload: () =>
          JSON.stringify({
            code: 'unknown-code-0123456789',
            redirect_uri: 'muster://oauth/callback',
            code_verifier: 'v'.repeat(43),
          }),
        expected: { status: 401, error: INVALID_SESSION, contentType: 'json' },
      },
      {
        target: 'invalid',
        url: `${P}/session`,
        headers: JSON_BODY,
        payload: () => JSON.stringify({ code: 'x' }),
        expected: { status: 422, error: 'body.redirect_uri is required', contentType: 'json' },
      },
    ],
  },
];

let address = 0;
/** A distinct client IP per row (RFC 5737 TEST-NET-2), so per-IP limits never interfere. */
function nextAddress(): string {
  address += 1;
  return `198.51.${Math.floor(address / 250)}.${(address % 250) + 1}`;
}

/** Every cell: 6 routes (10 columns) × every principal of the world. */
export const signinRows: SigninMatrixRow[] = ROUTES.flatMap((def) =>
  PRINCIPALS.flatMap((principal) =>
    def.columns.map(
      (col): SigninMatrixRow => ({
        method: def.method,
        route: def.route,
        url: col.url,
        headers: col.headers,
        ...(col.payload ? { payload: col.payload(principal) } : {}),
        principal,
        target: col.target,
        remoteAddress: nextAddress(),
        expected: col.expected,
      }),
    ),
  ),
);

/** The Fastify route keys the rows cover (for the matrix coverage test). */
export const signinRouteKeys: string[] = ROUTES.map((r) => r.route);
