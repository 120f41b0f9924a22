/**
 * The gate's hooks: every route that declares `config.action` passes the access policy
 * (access/authorize.ts) with the credential its `config.credential` names, and handlers get the
 * typed context through `ctxOf`. Credential sources:
 * - `bearer` (default): the Authorization header, checked onRequest, before the body is parsed;
 *   sets `X-Token-Refresh-Recommended: true` when a mobile token has < 3 days left (docs/decisions.md "Credentials and roles").
 * - `session_cookie`: the web pages' sealed session cookie (http/session-cookie.ts), checked
 *   preHandler, after the pages' CSRF check and validation (a forged form is refused first); no
 *   or dead session → SignInRequired (the pages redirect to /signin). `optionalSession` pages
 *   (home, sign-out) run without a context instead.
 * - `guardian_link`: the guardian portal's path token `{token}` (access/guardian-link.ts), checked
 *   preHandler like the session cookie (after the rate limit, the pages' CSRF check and validation);
 *   unknown → 404, expired → 410.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action } from '../access/actions.js';
import { bearerToken } from '../access/authenticate.js';
import { type AccessContext, accessFor, authorize } from '../access/authorize.js';
import { authorizeGuardianLink } from '../access/guardian-link.js';
import type { CtxFor, Deps } from '../deps.js';
import { ApiError } from '../lib/errors.js';
import { isRecord } from '../lib/narrow.js';
import { SignInRequired, sessionToken } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    access?: AccessContext;
  }
}

const REFRESH_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

type Params = Record<string, string | undefined>;

/** Are these the router's path parameters (text values; the route schemas keep ids as strings)? */
const isParams = (value: unknown): value is Params =>
  isRecord(value) && Object.values(value).every((v) => v === undefined || typeof v === 'string');

/** The request's path parameters; none when absent. */
const paramsOf = (request: FastifyRequest): Params => (isParams(request.params) ? request.params : {});

export function registerAuthorization(app: FastifyInstance, deps: Deps): void {
  app.addHook('onRequest', async (request, reply) => {
    const { action, credential = 'bearer', syncWatermark } = request.routeOptions.config;
    if (!action || credential !== 'bearer') return;
    // The refresh hint goes on every response once the token is known, denials included (docs/decisions.md "Credentials and roles").
    request.access = await authorize(
      deps.db,
      action,
      bearerToken(request.headers.authorization),
      paramsOf(request),
      (p) => {
        if (p.kind === 'mobile' && p.expiresAt.getTime() - Date.now() < REFRESH_WINDOW_MS) {
          reply.header('X-Token-Refresh-Recommended', 'true');
        }
      },
      { watermark: syncWatermark === true },
    );
  });
  app.addHook('preHandler', async (request) => {
    const { action, credential, optionalSession } = request.routeOptions.config;
    if (action && credential === 'guardian_link') {
      request.access = await authorizeGuardianLink(deps.db, action, paramsOf(request).token);
      return;
    }
    if (!action || credential !== 'session_cookie') return;
    const token = sessionToken(deps.sealer, request);
    try {
      if (!token) throw new SignInRequired();
      request.access = await authorize(deps.db, action, token, paramsOf(request));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (optionalSession) return;
      throw error.statusCode === 401 ? new SignInRequired() : error;
    }
  });
}

/**
 * What a request tells about its route: the action its `config.action` declares (Fastify infers
 * the literal from the route's options, so `A` is that one action in a route's handler and hooks).
 */
export interface RoutedRequest<A extends Action> {
  readonly routeOptions: { readonly url?: string; readonly config: { readonly action?: A } };
  readonly access?: AccessContext;
  readonly log: FastifyRequest['log'];
}

/**
 * The service context of the request, for the action its route declares (`config.action`), typed
 * by that action's target and credential kinds (access/authorize.ts AccessFor). Throws when the
 * gate did not run (a route without `config.action`: a programming error, never a caller's).
 */
export function routeCtx<A extends Action>(deps: Deps, request: RoutedRequest<A>): CtxFor<A> {
  const ctx = optionalRouteCtx(deps, request);
  if (!ctx) throw new Error(`Route ${request.routeOptions.url} was not authorised`);
  return ctx;
}

/** Like routeCtx, for an `optionalSession` page: null when the visitor is not signed in. */
export function optionalRouteCtx<A extends Action>(deps: Deps, request: RoutedRequest<A>): CtxFor<A> | null {
  const access = request.access;
  if (!access) return null;
  const action = request.routeOptions.config.action;
  if (action === undefined || access.action !== action)
    throw new Error(`Route ${request.routeOptions.url} was authorised for another action`);
  return { ...deps, log: request.log, access: accessFor(action, access) };
}

/**
 * Old form, kept while other branches still use it: prefer routeCtx.
 * The service context of a request the gate authorised for `action` (the route's `config.action`),
 * typed by that action's target and credential kinds (access/authorize.ts AccessFor). A hook shared
 * by routes of several actions names them all. A route that names another action fails loudly.
 */
export function ctxOf<A extends Action>(
  deps: Deps,
  request: FastifyRequest,
  action: A | readonly A[],
): CtxFor<A> {
  const ctx = optionalCtxOf(deps, request, action);
  if (!ctx) throw new Error(`Route ${request.routeOptions.url} was not authorised for ${String(action)}`);
  return ctx;
}

/** Like ctxOf, for an `optionalSession` page: null when the visitor is not signed in. */
export function optionalCtxOf<A extends Action>(
  deps: Deps,
  request: FastifyRequest,
  action: A | readonly A[],
): CtxFor<A> | null {
  const access = request.access;
  if (!access) return null;
  const wanted: readonly A[] = typeof action === 'string' ? [action] : action;
  const matched = wanted.find((a) => a === access.action);
  if (matched === undefined)
    throw new Error(`Route ${request.routeOptions.url} was not authorised for ${wanted.join(' or ')}`);
  return { ...deps, log: request.log, access: accessFor(matched, access) };
}
