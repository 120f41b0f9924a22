/**
 * A secret shown once across a POST-redirect-GET (docs/staff-dashboard.md "Webhooks"): the POST
 * puts it in a sealed (AES-256-GCM), HttpOnly, SameSite=Strict cookie scoped to the page it
 * redirects to and living 60 s; the GET takes it and clears the cookie, so a reload or a second
 * visit never shows it again. Never in a URL, the database or a log. `scope` binds it to one
 * target (a webhook id): a cookie for another target is ignored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { cookieBase } from '../web/session.js';

const SECONDS = 60;

interface Once {
  v: 1;
  scope: string;
  secret: string;
  exp: number;
}

const options = (deps: Deps, path: string) => ({ ...cookieBase(deps), path, sameSite: 'strict' as const });

/** Sets the cookie `name` for the page at `path` (where the POST redirects). */
export function putSecretOnce(
  deps: Deps,
  reply: FastifyReply,
  where: { name: string; path: string; scope: string },
  secret: string,
): void {
  const once: Once = { v: 1, scope: where.scope, secret, exp: Date.now() + SECONDS * 1000 };
  reply.setCookie(where.name, deps.sealer.seal(once), { ...options(deps, where.path), maxAge: SECONDS });
}

/** The secret put for this page and scope in the last minute, once (the cookie is cleared); else null. */
export function takeSecretOnce(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  where: { name: string; path: string; scope: string },
): string | null {
  const raw = request.cookies[where.name];
  if (!raw) return null;
  reply.clearCookie(where.name, options(deps, where.path));
  try {
    const once = deps.sealer.unseal<Once>(raw);
    return once.v === 1 && once.scope === where.scope && once.exp > Date.now() ? once.secret : null;
  } catch {
    return null;
  }
}
