/**
 * The browser session of the web pages. After the one-time-code sign-in (the OAuth pages of
 * modules/signin, with Muster's web pages as a built-in client) the pages hold a mobile token,
 * like the app does, but only inside the `muster_session` cookie, sealed with AES-256-GCM under
 * the server key (lib/sealed.ts): the browser never sees the token, and the database keeps only
 * its SHA-256 digest (credentials/issue.service.ts). The cookie is HttpOnly, SameSite=Lax, Secure
 * when MUSTER_BASE_URL is https, and lives as long as the token (14 days) or until sign-out, which
 * revokes the token. Pages declare `config: { action, credential: 'session_cookie' }` and the
 * API's own gate resolves the cookie (http/authorize.ts), so a page sees exactly what the matching
 * API route would. Pinned by test/web/session.test.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../access/authenticate.js';
import { isUserPrincipal } from '../../access/principal.js';
import type { Deps } from '../../deps.js';
import { SESSION_COOKIE, type SealedSession, sessionToken } from '../../http/session-cookie.js';

export { SESSION_COOKIE, SignInRequired, sessionToken } from '../../http/session-cookie.js';

export const SIGNIN_COOKIE = 'muster_signin';

/** The sign-in round trip: PKCE verifier, state and where to go afterwards (10 minutes). */
export interface SigninState {
  v: 1;
  state: string;
  verifier: string;
  next: string;
  exp: number;
}

export function cookieBase(deps: Deps) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.config.baseUrl.startsWith('https:'),
  };
}

/** Stores a signed-in session (the token sealed) until `expiresAt`. */
export function setSession(deps: Deps, reply: FastifyReply, token: string, expiresAt: Date): void {
  const value = deps.sealer.seal({ v: 1, t: token } satisfies SealedSession);
  reply.setCookie(SESSION_COOKIE, value, { ...cookieBase(deps), expires: expiresAt });
}

export function clearSession(deps: Deps, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieBase(deps));
}

/**
 * The signed-in user's email for the page header, or null (never throws). A page the gate let
 * through has it in its context; other pages only authenticate the session (who is it), they
 * decide nothing with it.
 */
export async function signedInAs(deps: Deps, request: FastifyRequest): Promise<string | null> {
  const principal = request.access?.principal;
  if (principal) return isUserPrincipal(principal) ? principal.user.email : null;
  const token = sessionToken(deps.sealer, request);
  if (!token) return null;
  try {
    const who = await authenticate(deps.db, token);
    return isUserPrincipal(who) ? who.user.email : null;
  } catch {
    return null;
  }
}

/** A local path to continue to after sign-in; anything else (absolute URLs, `//host`) becomes `/`. */
export function safeNext(next: string | undefined): string {
  if (!next || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return /^[\x21-\x7e]+$/.test(next) ? next : '/';
}
