/**
 * The browser session of the web pages. After the one-time-code sign-in (the OAuth pages of
 * modules/signin, with Muster's web pages as a built-in client) the pages hold a mobile token,
 * like the app does, but only inside the `muster_session` cookie, sealed with AES-256-GCM under
 * the server key (lib/sealed.ts): the browser never sees the token, and the database keeps only
 * its SHA-256 digest (credentials/issue.service.ts). The cookie is HttpOnly, SameSite=Lax, Secure
 * when MUSTER_BASE_URL is https, and lives as long as the token (14 days) or until sign-out, which
 * revokes the token. Page routes resolve the cookie with the API's own gate (access/authorize.ts),
 * so a page sees exactly what the matching API route would. Pinned by test/web/session.test.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Action } from '../../access/actions.js';
import { type AccessContext, type AccessFor, authorize } from '../../access/authorize.js';
import type { CtxFor, Deps } from '../../deps.js';
import { ApiError } from '../../lib/errors.js';

export const SESSION_COOKIE = 'muster_session';
export const SIGNIN_COOKIE = 'muster_signin';

interface SealedSession {
  v: 1;
  /** The mobile token (a secret; only ever inside the sealed cookie). */
  t: string;
}

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

/** The token in the session cookie, or undefined when there is none or it does not unseal. */
export function sessionToken(deps: Deps, request: FastifyRequest): string | undefined {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return undefined;
  try {
    const value = deps.sealer.unseal<SealedSession>(raw);
    return value?.v === 1 && typeof value.t === 'string' ? value.t : undefined;
  } catch {
    return undefined;
  }
}

/** Thrown when a page needs a signed-in user and there is none: the pages answer with a redirect to /signin. */
export class SignInRequired extends ApiError {
  constructor() {
    super(401, 'Sign in to continue');
  }
}

/** Per request: the gate's answer for each action (and params) already asked, so a page and its header share one lookup. */
const asked = new WeakMap<FastifyRequest, Map<string, Promise<AccessContext>>>();

/**
 * Runs the API's gate for `action` with the session's token: the same principal, target and
 * visibility the API route would get. No or dead session → SignInRequired; other denials (403, 404)
 * are thrown as the API would throw them. Asked once per request and action: a handler that needs
 * the context twice, and the page header (signedInAs), reuse the first answer.
 */
export function pageAccess<A extends Action>(
  deps: Deps,
  request: FastifyRequest,
  action: A,
  params: Record<string, string | undefined> = {},
): Promise<AccessFor<A>> {
  let answers = asked.get(request);
  if (!answers) {
    answers = new Map();
    asked.set(request, answers);
  }
  const key = `${action} ${JSON.stringify(params)}`;
  let answer = answers.get(key);
  if (!answer) {
    answer = gate(deps, request, action, params);
    answers.set(key, answer);
  }
  return answer as Promise<AccessFor<A>>;
}

async function gate(
  deps: Deps,
  request: FastifyRequest,
  action: Action,
  params: Record<string, string | undefined>,
): Promise<AccessContext> {
  const token = sessionToken(deps, request);
  if (!token) throw new SignInRequired();
  try {
    return await authorize(deps.db, action, token, params);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 401) throw new SignInRequired();
    throw error;
  }
}

/** A user context this request already has (any action), without asking the gate again. */
async function knownUser(request: FastifyRequest): Promise<string | null> {
  for (const answer of asked.get(request)?.values() ?? []) {
    const access = await answer.catch(() => null);
    if (access && 'user' in access.principal) return access.principal.user.email;
  }
  return null;
}

/** The service context of a page request: dependencies plus the session's access context. */
export async function pageCtx<A extends Action>(
  deps: Deps,
  request: FastifyRequest,
  action: A,
  params: Record<string, string | undefined> = {},
): Promise<CtxFor<A>> {
  const access = await pageAccess(deps, request, action, params);
  return { ...deps, log: request.log as Deps['log'], access };
}

/** The signed-in user's email for the page header, or null (never throws). */
export async function signedInAs(deps: Deps, request: FastifyRequest): Promise<string | null> {
  const known = await knownUser(request);
  if (known) return known;
  try {
    const access = await pageAccess(deps, request, 'account.me');
    return 'user' in access.principal ? access.principal.user.email : null;
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
