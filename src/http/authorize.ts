/**
 * onRequest gate: runs the access policy (access/authorize.ts) for the route's declared action,
 * before the body is even parsed, and exposes `request.ctx` to handlers. Also sets
 * `X-Token-Refresh-Recommended: true` when a mobile token has < 3 days left (contract §2).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action } from '../access/actions.js';
import { bearerToken } from '../access/authenticate.js';
import { type AccessContext, type AccessFor, authorize } from '../access/authorize.js';
import type { CtxFor, Deps } from '../deps.js';

declare module 'fastify' {
  interface FastifyRequest {
    access?: AccessContext;
  }
}

const REFRESH_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

export function registerAuthorization(app: FastifyInstance, deps: Deps): void {
  app.addHook('onRequest', async (request, reply) => {
    const action = request.routeOptions.config.action;
    if (!action) return;
    // The refresh hint goes on every response once the token is known, denials included (contract §2).
    request.access = await authorize(
      deps.db,
      action,
      bearerToken(request.headers.authorization),
      (request.params ?? {}) as Record<string, string | undefined>,
      (p) => {
        if (p.kind === 'mobile' && p.expiresAt.getTime() - Date.now() < REFRESH_WINDOW_MS) {
          reply.header('X-Token-Refresh-Recommended', 'true');
        }
      },
    );
  });
}

/**
 * The service context of a request the gate authorised for `action` (the route's `config.action`),
 * typed by that action's target and credential kinds (access/authorize.ts AccessFor). A hook shared
 * by routes of several actions names them all. A route that names another action fails loudly.
 */
export function ctxOf<A extends Action>(
  deps: Deps,
  request: FastifyRequest,
  action: A | readonly A[],
): CtxFor<A> {
  const access = request.access;
  const wanted: readonly Action[] = typeof action === 'string' ? [action] : action;
  if (!access || !wanted.includes(access.action))
    throw new Error(`Route ${request.routeOptions.url} was not authorised for ${wanted.join(' or ')}`);
  return { ...deps, log: request.log as Deps['log'], access: access as AccessFor<A> };
}
