/**
 * Authorization-matrix rows for the airport and flight lookups, transcribed from the spec ("Airport
 * and flight lookups authenticate with the web session cookie, not a bearer token") and the design
 * (contract §11: a bearer-only request is 401; a cookie-authenticated POST carries the page's CSRF
 * token), not from src/access. Run by test/travel/lookups-rows.test.ts.
 *
 * - Every bearer principal of the matrix (no session cookie): 401 `{"error":"Unauthorized"}` on
 *   both routes, whatever the credential: keys and tokens cannot reach them.
 * - Every signed-in person (the world's users, participants and staff alike, each through a session
 *   cookie): 200 on the search; 200 on the flight check with the page's CSRF token, 403 without it.
 */
import { PRINCIPALS, type PrincipalName, type UserName } from '../../support/world.js';

export const SEARCH_ROUTE = 'GET /api/v1/travel/search_airports';
export const VALIDATE_ROUTE = 'POST /api/v1/travel/validate_flight';
export const travelLookupRouteKeys = [SEARCH_ROUTE, VALIDATE_ROUTE];

export interface BearerLookupRow {
  route: string;
  principal: PrincipalName;
  expected: { status: 401; error: 'Unauthorized' };
}

export const bearerLookupRows: BearerLookupRow[] = travelLookupRouteKeys.flatMap((route) =>
  PRINCIPALS.map(
    (principal) => ({ route, principal, expected: { status: 401, error: 'Unauthorized' } }) as const,
  ),
);

export interface SessionLookupRow {
  route: string;
  user: UserName;
  csrf: boolean;
  expected: { status: number };
}

/** Every world user with a live account (the demoted admin is a plain user now: still signed in). */
export const SESSION_USERS: UserName[] = [
  'participant',
  'readOnly',
  'limited',
  'ops',
  'eventAdmin',
  'safeguarding',
  'seriesOwner',
  'seriesOrganizer',
  'admin',
  'demoted',
];

export const sessionLookupRows: SessionLookupRow[] = SESSION_USERS.flatMap((user) => [
  { route: SEARCH_ROUTE, user, csrf: false, expected: { status: 200 } },
  { route: VALIDATE_ROUTE, user, csrf: true, expected: { status: 200 } },
  { route: VALIDATE_ROUTE, user, csrf: false, expected: { status: 403 } },
]);
