/**
 * Sign-in for the web pages, reusing Muster's one-time-code sign-in pages (modules/signin): the
 * pages are an OAuth client (web-client.ts) that sends the browser to GET /api/v1/oauth/authorize
 * with PKCE S256, then exchanges the returned code with the same service as POST /session
 * (exchangeCode) and keeps the token sealed in the session cookie (session.ts).
 *
 * - GET /signin?next=/path: starts the round trip (verifier, state and `next` sealed in a
 *   10-minute `muster_signin` cookie) → 302 to the sign-in page.
 * - GET /signin/callback?code&state: checks state against the cookie, exchanges the code → session
 *   cookie → 302 to `next` (a local path only; staff going home land on /staff). Anything wrong →
 *   an error page with a new link.
 * - POST /signout: revokes the session's token (the service behind DELETE /session) and asks the
 *   browser to clear the site's storage (`Clear-Site-Data: "storage"`: the check-in desk's cache).
 */

import type { Deps } from '../../deps.js';
import { optionalRouteCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { safeEqual } from '../../lib/secrets.js';
import { signOut } from '../credentials/session.service.js';
import { exchangeCode } from '../signin/exchange.service.js';
import {
  clearSession,
  cookieBase,
  SIGNIN_COOKIE,
  type SigninState,
  safeNext,
  setSession,
} from './session.js';
import { CallbackQuery, CsrfForm, NextQuery, pageResponses } from './web.schemas.js';
import {
  authorizeUrlFor,
  ensureWebClient,
  pkcePair,
  WEB_CLIENT_ID,
  WEB_DEVICE_NAME,
  webRedirectUri,
} from './web-client.js';

const TEN_MINUTES_S = 600;

export function signinPages(app: Api, deps: Deps): void {
  const signinCookie = { ...cookieBase(deps), path: '/signin' };

  app.get(
    '/signin',
    {
      config: { public: 'none', rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { hide: true, querystring: NextQuery, response: pageResponses },
    },
    async (request, reply) => {
      await ensureWebClient(deps);
      const { verifier, challenge, state } = pkcePair();
      const next = safeNext(request.query.next);
      const value: SigninState = { v: 1, state, verifier, next, exp: Date.now() + TEN_MINUTES_S * 1000 };
      reply.setCookie(SIGNIN_COOKIE, deps.sealer.seal(value), { ...signinCookie, maxAge: TEN_MINUTES_S });
      return reply.redirect(authorizeUrlFor(deps, challenge, state), 302);
    },
  );

  app.get(
    '/signin/callback',
    {
      config: { public: 'none', rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { hide: true, querystring: CallbackQuery, response: pageResponses },
    },
    async (request, reply) => {
      const query = request.query;
      const raw = request.cookies[SIGNIN_COOKIE];
      let pending: SigninState | undefined;
      try {
        pending = raw ? deps.sealer.unseal<SigninState>(raw) : undefined;
      } catch {
        pending = undefined;
      }
      reply.clearCookie(SIGNIN_COOKIE, signinCookie);
      const again = {
        href: `/signin?next=${encodeURIComponent(pending?.next ?? '/')}`,
        text: 'Sign in again',
      };
      const fail = (message: string) =>
        reply.page(400, 'message', { title: 'Sign-in not completed', message, alert: true, link: again });
      if (pending?.v !== 1 || pending.exp < Date.now())
        return fail('This sign-in took too long or was started in another browser. Please sign in again.');
      if (!query.state || !safeEqual(query.state, pending.state))
        return fail('This sign-in link does not belong to this browser. Please sign in again.');
      if (query.error || !query.code) return fail('Sign-in was cancelled or refused.');
      let session: { token: string; expires_at: string; user: { is_organizer: boolean } };
      try {
        session = await exchangeCode(deps, {
          code: query.code,
          redirect_uri: webRedirectUri(deps),
          code_verifier: pending.verifier,
          client_id: WEB_CLIENT_ID,
          device_name: WEB_DEVICE_NAME,
        });
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 401)
          return fail('This sign-in code was already used or has expired. Please sign in again.');
        throw error;
      }
      setSession(deps, reply, session.token, new Date(session.expires_at));
      // Staff who signed in from the home page land on the staff dashboard; any other destination
      // (a registration, a staff page) is where they were going (docs/staff-dashboard.md).
      const next = safeNext(pending.next);
      return reply.redirect(next === '/' && session.user.is_organizer ? '/staff' : next, 302);
    },
  );

  app.post(
    '/signout',
    {
      // Signed out already (or a dead session): the cookie goes either way.
      config: { action: 'session.delete', credential: 'session_cookie', optionalSession: true },
      schema: { hide: true, body: CsrfForm, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = optionalRouteCtx(deps, request);
      if (ctx) {
        try {
          await signOut(ctx);
        } catch {
          // Signed out concurrently: the cookie goes either way.
        }
      }
      clearSession(deps, reply);
      // The check-in desk's offline data (IndexedDB: queued scans, the participant list) goes too;
      // browsers honour this on https and localhost (the desk's script also deletes it first).
      reply.header('Clear-Site-Data', '"storage"');
      return reply.page(200, 'message', {
        title: 'Signed out',
        message: 'You have signed out of Muster on this browser.',
        signedInAs: null,
      });
    },
  );
}
