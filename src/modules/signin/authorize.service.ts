/**
 * Sign-in (docs/decisions.md "Account and sessions"): Muster's own OAuth 2.0 authorization server for its apps.
 *
 * GET /oauth/authorize checks the client's request (checkAuthorizeRequest); the user proves their
 * address with a one-time 6-digit code (email-code.service.ts) or an upstream OpenID Connect
 * provider (upstream.service.ts); either ends in a single-use authorization code
 * (made by issueAuthorizationCode) that POST /session exchanges with PKCE for a mobile token
 * (exchange.service.ts). Secrets are stored as digests only, compared in constant time.
 *
 * Security-critical: pinned by test/signin/flow.test.ts, codes.test.ts, oidc.test.ts, dev.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { authorizationCodes, signInRequests } from '../../db/schema/index.js';
import { digestSecret } from '../../lib/secrets.js';
import { findClient, isRegisteredRedirectUri, type OAuthClient } from './clients.service.js';
import type { ClientRequest } from './signin.pages.js';

/** Sign-in codes and authorization codes live 10 minutes (docs/decisions.md "Account and sessions"). */
export const CODE_TTL_MINUTES = 10;
export const CODE_TTL_MS = CODE_TTL_MINUTES * 60 * 1000;
/** Finished sign-in requests and authorization codes are deleted a day after they expire. */
const RETENTION = sql`interval '1 day'`;

/** S256 challenges are base64url SHA-256 digests: exactly 43 characters (RFC 7636 §4.2). */
export const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43-128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
export const VERIFIER_PATTERN = '^[A-Za-z0-9._~-]{43,128}$';
export const MAX_STATE_LENGTH = 1024;

// ------------------------------------------------------------------------------------------------
// The client's authorization request
// ------------------------------------------------------------------------------------------------

export interface AuthorizeParams {
  response_type?: string | undefined;
  client_id?: string | undefined;
  redirect_uri?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
  state?: string | undefined;
}

export type AuthorizeCheck =
  | { ok: true; client: OAuthClient; request: ClientRequest }
  /** Client or redirect URI not trusted: tell the user, never redirect (RFC 6749 §4.1.2.1). */
  | { ok: false; redirect: null; message: string }
  /** Anything else: back to the (registered) redirect URI with `error` and the client's `state`. */
  | { ok: false; redirect: string; message: string };

/** Validates an authorization request in the order RFC 6749 §4.1.2.1 prescribes. */
export async function checkAuthorizeRequest(tx: Tx, p: AuthorizeParams): Promise<AuthorizeCheck> {
  const client = p.client_id ? await findClient(tx, p.client_id) : undefined;
  if (!client) return { ok: false, redirect: null, message: 'This sign-in link names an unknown app.' };
  if (!p.redirect_uri || !isRegisteredRedirectUri(client, p.redirect_uri)) {
    return {
      ok: false,
      redirect: null,
      message: 'This sign-in link asks to return to an address that is not registered for this app.',
    };
  }
  const fail = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    redirect: redirectWith(p.redirect_uri!, { error, error_description: description, state: p.state }),
    message: description,
  });
  if (!p.response_type) return fail('invalid_request', 'response_type is required');
  if (p.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (!p.code_challenge) return fail('invalid_request', 'code_challenge is required (PKCE)');
  if (p.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256');
  if (!CHALLENGE.test(p.code_challenge))
    return fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest (43 characters)');
  if (p.state !== undefined && p.state.length > MAX_STATE_LENGTH)
    return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters`);
  return {
    ok: true,
    client,
    request: {
      client_id: client.clientId,
      redirect_uri: p.redirect_uri,
      code_challenge: p.code_challenge,
      state: p.state,
    },
  };
}

/** `uri` with extra query parameters (existing ones kept); undefined values are left out. */
export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.append(key, value);
  return url.href;
}

export async function purgeFinished(tx: Tx): Promise<void> {
  await tx.delete(signInRequests).where(lt(signInRequests.expiresAt, sql`now() - ${RETENTION}`));
  await tx.delete(authorizationCodes).where(lt(authorizationCodes.expiresAt, sql`now() - ${RETENTION}`));
}

export interface PendingRequest {
  id: string;
  email: string | null;
  request: ClientRequest;
}

export type RequestRow = typeof signInRequests.$inferSelect;

export function pendingOf(row: RequestRow): PendingRequest {
  return {
    id: row.id,
    email: row.email,
    request: {
      client_id: row.clientId,
      redirect_uri: row.redirectUri,
      code_challenge: row.codeChallenge,
      state: row.state ?? undefined,
    },
  };
}

/**
 * Issues Muster's authorization code for the client's request (re-checking that the client still
 * has that redirect URI) and returns the redirect: `redirect_uri?code=…&state=…`.
 */
export async function issueAuthorizationCode(
  tx: Tx,
  request: ClientRequest,
  userId: number,
  method: 'email' | 'oidc',
): Promise<string | null> {
  const client = await findClient(tx, request.client_id);
  if (!client || !isRegisteredRedirectUri(client, request.redirect_uri)) return null;
  const code = randomBytes(32).toString('base64url');
  await tx.insert(authorizationCodes).values({
    codeDigest: digestSecret(code),
    clientId: client.clientId,
    redirectUri: request.redirect_uri,
    codeChallenge: request.code_challenge,
    userId,
    signInMethod: method,
    expiresAt: new Date(Date.now() + CODE_TTL_MS).toISOString(),
  });
  return redirectWith(request.redirect_uri, { code, state: request.state });
}
