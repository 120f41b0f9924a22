/**
 * Authorization-matrix rows for the web pages (docs/decisions.md "Registration side" "a participant signs in
 * like any user"), transcribed from the design, not from src/access.
 *
 * The pages are for browsers: a bearer credential plays no part (like the sign-in pages), so every
 * principal of the matrix gets the same answer; what decides is the session cookie, which these rows
 * never carry. So: public pages answer (200 / 204), the sign-in start redirects to Muster's sign-in
 * page, pages that need a signed-in person redirect to /signin?next=…, and every form post without
 * the CSRF cookie and field is refused (403 page) before anything else. test/web/rows.test.ts runs
 * them and proves the refused ones change nothing; the session-bearing cases are in test/web/*.
 *
 * Each row: { method, route (Fastify route key), url, payload?, principal, target, expected:
 * { status, location? (prefix), contentType } }.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

export interface WebMatrixRow {
  method: 'GET' | 'POST';
  route: string;
  url: string;
  payload?: string;
  principal: PrincipalName;
  target: string;
  expected: { status: number; location?: string; contentType: 'html' | 'css' | 'js' | 'wasm' | 'none' };
}

interface RouteDef {
  method: WebMatrixRow['method'];
  route: string;
  url: string;
  target: string;
  payload?: string;
  expected: WebMatrixRow['expected'];
}

const NO_CSRF = { status: 403, contentType: 'html' } as const;
function toSignIn(url: string): WebMatrixRow['expected'] {
  return { status: 302, location: `/signin?next=${encodeURIComponent(url)}`, contentType: 'none' };
}

const ROUTES: RouteDef[] = [
  { method: 'GET', route: 'GET /', url: '/', target: 'home', expected: { status: 200, contentType: 'html' } },
  {
    method: 'GET',
    route: 'GET /assets/muster.css',
    url: '/assets/muster.css',
    target: 'stylesheet',
    expected: { status: 200, contentType: 'css' },
  },
  {
    method: 'GET',
    route: 'GET /assets/htmx.min.js',
    url: '/assets/htmx.min.js',
    target: 'public',
    expected: { status: 200, contentType: 'js' },
  },
  {
    method: 'GET',
    route: 'GET /assets/js/:name',
    url: '/assets/js/staff.js',
    target: 'public',
    expected: { status: 200, contentType: 'js' },
  },
  // The check-in desk's QR decoder (zxing-wasm from node_modules): public, like the other scripts.
  {
    method: 'GET',
    route: 'GET /assets/vendor/zxing-reader.js',
    url: '/assets/vendor/zxing-reader.js',
    target: 'public',
    expected: { status: 200, contentType: 'js' },
  },
  {
    method: 'GET',
    route: 'GET /assets/vendor/zxing_reader.wasm',
    url: '/assets/vendor/zxing_reader.wasm',
    target: 'public',
    expected: { status: 200, contentType: 'wasm' },
  },
  {
    method: 'GET',
    route: 'GET /media/:file',
    url: `/media/${'0'.repeat(64)}.png`,
    target: 'unknown image',
    expected: { status: 404, contentType: 'none' },
  },
  {
    method: 'GET',
    route: 'GET /favicon.ico',
    url: '/favicon.ico',
    target: 'icon',
    expected: { status: 204, contentType: 'none' },
  },
  {
    method: 'GET',
    route: 'GET /signin',
    url: '/signin?next=%2F',
    target: 'start',
    expected: { status: 302, location: '/api/v1/oauth/authorize?', contentType: 'none' },
  },
  {
    method: 'GET',
    route: 'GET /signin/callback',
    url: '/signin/callback?code=abc&state=def',
    target: 'no round trip',
    expected: { status: 400, contentType: 'html' },
  },
  {
    method: 'POST',
    route: 'POST /signout',
    url: '/signout',
    payload: '_csrf=forged',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'GET',
    route: 'GET /register/accept',
    url: '/register/accept?token=not-a-real-invitation-token',
    target: 'unknown token',
    expected: { status: 404, contentType: 'html' },
  },
  {
    method: 'POST',
    route: 'POST /register/accept/continue',
    url: '/register/accept/continue',
    payload: 'token=not-a-real-invitation-token',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'GET',
    route: 'GET /register/:pe',
    url: '/register/1',
    target: 'no session',
    expected: toSignIn('/register/1'),
  },
  {
    method: 'GET',
    route: 'GET /my-data',
    url: '/my-data',
    target: 'no session',
    expected: toSignIn('/my-data'),
  },
  {
    method: 'GET',
    route: 'GET /register/:pe/:section',
    url: '/register/1/personal',
    target: 'no session',
    expected: toSignIn('/register/1/personal'),
  },
  {
    method: 'POST',
    route: 'POST /register/:pe/:section',
    url: '/register/1/personal',
    payload: 'personal.legal_first_name=Mallory',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'GET',
    route: 'GET /guardian/accept',
    url: '/guardian/accept?token=not-a-real-guardian-token',
    target: 'email link',
    expected: { status: 302, location: '/guardian/not-a-real-guardian-token', contentType: 'none' },
  },
  {
    method: 'GET',
    route: 'GET /guardian/:token',
    url: '/guardian/not-a-real-guardian-token',
    target: 'unknown token',
    expected: { status: 404, contentType: 'html' },
  },
  {
    method: 'POST',
    route: 'POST /guardian/:token',
    url: '/guardian/not-a-real-guardian-token',
    payload: 'name=Mallory',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  // The language switch (docs/languages.md): a form post like any other, refused without CSRF.
  {
    method: 'POST',
    route: 'POST /language',
    url: '/language',
    payload: 'lang=es&next=%2F',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'POST',
    route: 'POST /guardian/:token/language',
    url: '/guardian/not-a-real-guardian-token/language',
    payload: 'lang=es',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'POST',
    route: 'POST /guardian/:token/complete',
    url: '/guardian/not-a-real-guardian-token/complete',
    payload: '',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'POST',
    route: 'POST /register/accept',
    url: '/register/accept',
    payload: 'token=not-a-real-invitation-token',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'POST',
    route: 'POST /register/:pe/submit',
    url: '/register/1/submit',
    payload: '',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'GET',
    route: 'GET /register/:pe/consents/:id',
    url: '/register/1/consents/1',
    target: 'no session',
    expected: toSignIn('/register/1/consents/1'),
  },
  {
    method: 'POST',
    route: 'POST /register/:pe/consents/:id',
    url: '/register/1/consents/1',
    payload: 'signature_name=Mallory&agree=true',
    target: 'no csrf',
    expected: NO_CSRF,
  },
  {
    method: 'GET',
    route: 'GET /guardian/:token/consents/:id',
    url: '/guardian/not-a-real-guardian-token/consents/1',
    target: 'unknown token',
    expected: { status: 404, contentType: 'html' },
  },
  {
    method: 'POST',
    route: 'POST /guardian/:token/consents/:id',
    url: '/guardian/not-a-real-guardian-token/consents/1',
    payload: 'signature_name=Mallory&agree=true',
    target: 'no csrf',
    expected: NO_CSRF,
  },
];

export const webRouteKeys: string[] = [...new Set(ROUTES.map((r) => r.route))];

/**
 * What each page declares to the gate (architecture "every credential source goes through the
 * gate"; docs/decisions.md "Registration side"): pages that act for the signed-in person name the API action they share with
 * the app, read from the session cookie; the rest are public (the guardian pages' path token is
 * read by the `guardian_link` credential source, docs/decisions.md "Guardian portal"; sign-in and the
 * invitation landing need no one signed in).
 * `optional`: the page also serves signed-out visitors.
 */
export const PAGE_DECLARATIONS: Record<
  string,
  { action: string; optional?: true; credential?: 'guardian_link' } | 'public'
> = {
  'GET /': { action: 'registrations.self', optional: true },
  'GET /assets/muster.css': 'public',
  'GET /favicon.ico': 'public',
  'GET /assets/htmx.min.js': 'public',
  'GET /media/:file': 'public',
  'GET /assets/js/:name': 'public',
  'GET /assets/vendor/zxing-reader.js': 'public',
  'GET /assets/vendor/zxing_reader.wasm': 'public',
  'GET /signin': 'public',
  'GET /signin/callback': 'public',
  'POST /signout': { action: 'session.delete', optional: true },
  'GET /register/accept': 'public',
  'POST /register/accept': { action: 'registrations.self' },
  'POST /register/accept/continue': 'public',
  'GET /register/:pe': { action: 'registrations.own' },
  'GET /my-data': { action: 'privacy.own_export' },
  'POST /register/:pe/submit': { action: 'registrations.own' },
  'GET /register/:pe/:section': { action: 'registrations.own' },
  'POST /register/:pe/:section': { action: 'registrations.own' },
  'GET /register/:pe/consents/:id': { action: 'registrations.own' },
  'POST /register/:pe/consents/:id': { action: 'registrations.own' },
  'GET /guardian/accept': 'public',
  'GET /guardian/:token': { action: 'guardian_portal.read', credential: 'guardian_link' },
  'POST /guardian/:token': { action: 'guardian_portal.write', credential: 'guardian_link' },
  'POST /guardian/:token/complete': { action: 'guardian_portal.write', credential: 'guardian_link' },
  'POST /language': { action: 'registrations.self', optional: true },
  'POST /guardian/:token/language': { action: 'guardian_portal.write', credential: 'guardian_link' },
  'GET /guardian/:token/consents/:id': { action: 'guardian_portal.read', credential: 'guardian_link' },
  'POST /guardian/:token/consents/:id': { action: 'guardian_portal.write', credential: 'guardian_link' },
};

/**
 * Signed-in rows (session cookie, no bearer): docs/decisions.md "Registration side":
 * the owner gets the page; anyone else, staff and global admins included, 403 `This is not your
 * registration`; an unknown or malformed id 404 — the same answers as the API's
 * GET /registrations/{participant_event_id}. World: `participant` owns adultA (event A).
 */
/** Ids the session rows need from the world: two registrations and a consent of adultA. */
export interface SessionTargets {
  adultA: number;
  minorA: number;
  consentOfAdultA: number;
}

export interface WebSessionRow {
  route: string;
  user: 'participant' | 'eventAdmin' | 'admin';
  target: 'own' | 'other' | 'missing' | 'none';
  url: (t: SessionTargets) => string;
  expected: { status: number; text?: string };
}

const NOT_YOURS = 'This is not your registration';
const SESSION_PAGES = ['GET /register/:pe', 'GET /register/:pe/:section', 'GET /register/:pe/consents/:id'];

function sessionUrl(route: string, pe: string, consent: number): string {
  if (route === 'GET /register/:pe') return `/register/${pe}`;
  if (route === 'GET /register/:pe/:section') return `/register/${pe}/personal`;
  return `/register/${pe}/consents/${consent}`;
}

export const webSessionRows: WebSessionRow[] = SESSION_PAGES.flatMap((route) =>
  (['participant', 'eventAdmin', 'admin'] as const).flatMap((user) => [
    {
      route,
      user,
      target: 'own' as const,
      url: (t: SessionTargets) => sessionUrl(route, String(t.adultA), t.consentOfAdultA),
      // Only the participant owns adultA.
      expected: user === 'participant' ? { status: 200 } : { status: 403, text: NOT_YOURS },
    },
    {
      route,
      user,
      target: 'other' as const,
      url: (t: SessionTargets) => sessionUrl(route, String(t.minorA), t.consentOfAdultA),
      expected: { status: 403, text: NOT_YOURS },
    },
    {
      route,
      user,
      target: 'missing' as const,
      url: (t: SessionTargets) => sessionUrl(route, '999999999', t.consentOfAdultA),
      expected: { status: 404, text: 'Registration not found' },
    },
  ]),
);

export const webRows: WebMatrixRow[] = PRINCIPALS.flatMap((principal) =>
  ROUTES.map((r) => ({
    method: r.method,
    route: r.route,
    url: r.url,
    ...(r.payload === undefined ? {} : { payload: r.payload }),
    principal,
    target: r.target,
    expected: r.expected,
  })),
);

/** Rows that must change nothing in the database. */
export const isRefused = (row: WebMatrixRow): boolean =>
  row.expected.status >= 400 || (row.expected.location?.startsWith('/signin?') ?? false);
