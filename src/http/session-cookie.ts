/**
 * The `session_cookie` credential source: the web pages' browser session. After sign-in the pages
 * hold a mobile token, like the app does, but only inside the `muster_session` cookie, sealed with
 * AES-256-GCM under the server key (lib/sealed.ts): the browser never sees the token. The gate
 * (http/authorize.ts) reads it for routes that declare `credential: 'session_cookie'`, so a page
 * sees exactly what the matching API route would. Pinned by test/web/session.test.ts.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.js';
import type { Sealer } from '../lib/sealed.js';

export const SESSION_COOKIE = 'muster_session';

export interface SealedSession {
  v: 1;
  /** The mobile token (a secret; only ever inside the sealed cookie). */
  t: string;
}

/** The token in the session cookie, or undefined when there is none or it does not unseal. */
export function sessionToken(sealer: Sealer, request: FastifyRequest): string | undefined {
  const raw = (request.cookies as Record<string, string | undefined> | undefined)?.[SESSION_COOKIE];
  if (!raw) return undefined;
  try {
    const value = sealer.unseal<SealedSession>(raw);
    return value?.v === 1 && typeof value.t === 'string' ? value.t : undefined;
  } catch {
    return undefined;
  }
}

/** A page needs a signed-in user and there is none: the pages answer with a redirect to /signin. */
export class SignInRequired extends ApiError {
  constructor() {
    super(401, 'Sign in to continue');
  }
}
