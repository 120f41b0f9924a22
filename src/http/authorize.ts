/**
 * onRequest gate: runs the access policy (access/authorize.ts) for the route's declared action,
 * before the body is even parsed, and exposes `request.ctx` to handlers. Also sets
 * `X-Token-Refresh-Recommended: true` when a mobile token has < 3 days left (contract §2).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from '../access/authenticate.js';
import { type AccessContext, authorize } from '../access/authorize.js';
import type { Ctx, Deps } from '../deps.js';

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

/** The service context of an authorised request. */
export function ctxOf(deps: Deps, request: FastifyRequest): Ctx {
  if (!request.access) throw new Error(`Route ${request.routeOptions.url} has no access context`);
  return { ...deps, log: request.log as Deps['log'], access: request.access };
}
