/**
 * Sign-in (contract §3): Muster's own OAuth 2.0 authorization server for its apps.
 *
 * GET /oauth/authorize checks the client's request (checkAuthorizeRequest); the user proves their
 * address with a one-time 6-digit code (requestCode → verifyCode) or an upstream OpenID Connect
 * provider (startUpstream → finishUpstream); either ends in a single-use authorization code that
 * POST /session exchanges with PKCE for a mobile token (exchangeCode). Unknown users are never
 * created. Secrets are stored as SHA-256 digests only (sign-in codes salted with their request id;
 * authorization codes are 256-bit random), compared in constant time.
 *
 * Security-critical: pinned by test/signin/flow.test.ts, codes.test.ts, oidc.test.ts, dev.test.ts.
 */
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { NO_ROLES, visibilityFor } from '../../access/policy.js';
import type { Principal } from '../../access/principal.js';
import type { Tx } from '../../db/client.js';
import {
  authorizationCodes,
  eventRoles,
  mobileTokens,
  seriesRoles,
  signInRequests,
  users,
} from '../../db/schema/index.js';
import type { Deps, UserCtx } from '../../deps.js';
import { ApiError } from '../../lib/errors.js';
import { EMAIL_PATTERN, normalizeEmail, UUID_PATTERN } from '../../lib/identifiers.js';
import { digestSecret } from '../../lib/secrets.js';
import { isoTimestamp } from '../../lib/time.js';
import { getMe, listAccessibleEvents } from '../accounts/accounts.service.js';
import { findUserByEmail, type UserRow } from '../accounts/users.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { isBanned } from '../bans/bans.service.js';
import { issueMobileToken } from '../credentials/issue.service.js';
import { queueEmail } from '../email/email.service.js';
import { findClient, isRegisteredRedirectUri, type OAuthClient } from './clients.service.js';
import { type Upstream, UpstreamError, type UpstreamSecrets } from './oidc.service.js';
import type { ClientRequest } from './signin.pages.js';

/** Sign-in codes and authorization codes live 10 minutes (contract §3). */
export const CODE_TTL_MINUTES = 10;
const CODE_TTL_MS = CODE_TTL_MINUTES * 60 * 1000;
/** Verifications allowed per emailed code; the 6th is refused even with the right code. */
export const MAX_CODE_ATTEMPTS = 5;
/** Finished sign-in requests and authorization codes are deleted a day after they expire. */
const RETENTION = sql`interval '1 day'`;
export const INVALID_SESSION = 'Invalid session or user not found';

/** S256 challenges are base64url SHA-256 digests: exactly 43 characters (RFC 7636 §4.2). */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43-128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
export const VERIFIER_PATTERN = '^[A-Za-z0-9._~-]{43,128}$';
const VERIFIER = new RegExp(VERIFIER_PATTERN);
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

// ------------------------------------------------------------------------------------------------
// Who may sign in
// ------------------------------------------------------------------------------------------------

/**
 * Known users may sign in, except a participant-only user (no global admin, no event or series
 * role) whose address is on a ban in force: staff keep their access, banned participants get no
 * code (and are refused upstream sign-in the same way).
 */
async function maySignIn(tx: Tx, user: UserRow): Promise<boolean> {
  if (user.globalAdmin) return true;
  const res = await tx.execute<{ staff: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM ${eventRoles} WHERE ${eventRoles.userId} = ${user.id})
        OR EXISTS (SELECT 1 FROM ${seriesRoles} WHERE ${seriesRoles.userId} = ${user.id}) AS staff`);
  if (res.rows[0]?.staff) return true;
  return !(await isBanned(tx, user.email));
}

// ------------------------------------------------------------------------------------------------
// Emailed one-time code
// ------------------------------------------------------------------------------------------------

export function isPlausibleEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_PATTERN.test(email);
}

/**
 * A 6-digit code has ~20 bits, so a plain hash could be reversed by anyone reading the database;
 * it is stored as an HMAC under the server key (lib/sealed.ts) instead.
 */
function codeDigest(deps: Deps, requestId: string, code: string): string {
  return deps.sealer.mac(`${requestId}:${code}`);
}

function sameDigest(a: string | null, b: string): boolean {
  if (a === null || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

async function purgeFinished(tx: Tx): Promise<void> {
  await tx.delete(signInRequests).where(lt(signInRequests.expiresAt, sql`now() - ${RETENTION}`));
  await tx.delete(authorizationCodes).where(lt(authorizationCodes.expiresAt, sql`now() - ${RETENTION}`));
}

/**
 * Code requests per address, counted in the database (so they hold across restarts and processes
 * and cannot be evicted): the same for every address, known or not, so a 429 reveals nothing.
 * Finished requests are kept at least a day (RETENTION), which covers the longest window.
 */
export const CODE_REQUEST_LIMITS = [
  { max: 5, windowMinutes: 10 },
  { max: 20, windowMinutes: 24 * 60 },
] as const;

/** Too many code requests for one address; `retryAfter` in seconds. */
export class CodeRequestsExceeded extends ApiError {
  constructor(readonly retryAfter: number) {
    super(429, 'Too many codes were requested for this address. Try again later.');
  }
}

async function checkCodeRequestLimits(tx: Tx, email: string): Promise<void> {
  // Serialises concurrent requests for one address so the count cannot be overtaken.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`muster.sign_in:${email}`}))`);
  for (const { max, windowMinutes } of CODE_REQUEST_LIMITS) {
    const window = sql.raw(`interval '${windowMinutes} minutes'`);
    const res = await tx.execute<{ n: number; retry_after: number | null }>(sql`
      SELECT count(*)::int AS n,
             ceil(extract(epoch FROM min(${signInRequests.createdAt}) + ${window} - now()))::int AS retry_after
        FROM ${signInRequests}
       WHERE ${signInRequests.email} = ${email} AND ${signInRequests.method} = 'email'
         AND ${signInRequests.createdAt} > now() - ${window}`);
    const row = res.rows[0];
    if (row && row.n >= max) throw new CodeRequestsExceeded(Math.max(1, row.retry_after ?? 1));
  }
}

/**
 * Records a sign-in request and, only when the address belongs to a user who may sign in, emails a
 * fresh 6-digit code (queued in the same transaction). Unknown and refused addresses get an
 * identical request row whose code is never sent, so every later step behaves the same.
 * Throws CodeRequestsExceeded (429) past the per-address limits.
 */
export async function requestCode(
  deps: Deps,
  input: { request: ClientRequest; email: string; ip: string },
): Promise<{ requestId: string }> {
  const email = normalizeEmail(input.email);
  return deps.db.transaction(async (tx) => {
    await checkCodeRequestLimits(tx, email);
    await purgeFinished(tx);
    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await tx.insert(signInRequests).values({
      id,
      method: 'email',
      email,
      clientId: input.request.client_id,
      redirectUri: input.request.redirect_uri,
      codeChallenge: input.request.code_challenge,
      state: input.request.state ?? null,
      codeDigest: codeDigest(deps, id, code),
      expiresAt: new Date(Date.now() + CODE_TTL_MS).toISOString(),
      ip: input.ip,
    });
    const user = await findUserByEmail(tx, email);
    if (user && (await maySignIn(tx, user))) {
      await queueEmail(deps, tx, {
        to: user.email,
        template: 'sign_in_code',
        vars: { code, expires_minutes: CODE_TTL_MINUTES, name: user.name },
      });
    }
    return { requestId: id };
  });
}

export interface PendingRequest {
  id: string;
  email: string | null;
  request: ClientRequest;
}

export type VerifyResult =
  | { kind: 'ok'; redirect: string }
  | { kind: 'wrong'; pending: PendingRequest; attemptsLeft: number }
  | { kind: 'expired'; pending: PendingRequest }
  /** Unknown id, already used, or out of attempts. */
  | { kind: 'dead'; pending: PendingRequest | null };

type RequestRow = typeof signInRequests.$inferSelect;

function pendingOf(row: RequestRow): PendingRequest {
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

/** A live email sign-in request (for re-rendering its code page); null when unknown or used. */
export async function findPendingRequest(deps: Deps, requestId: string): Promise<PendingRequest | null> {
  if (!UUID_PATTERN.test(requestId)) return null;
  const [row] = await deps.db
    .select()
    .from(signInRequests)
    .where(
      and(
        eq(signInRequests.id, requestId),
        eq(signInRequests.method, 'email'),
        isNull(signInRequests.consumedAt),
      ),
    );
  return row ? pendingOf(row) : null;
}

/**
 * Checks a code: each call uses one of the request's 5 attempts (atomically, so parallel guesses
 * cannot exceed it); an expired request fails; on a match the request is consumed (once) and an
 * authorization code is issued. `code` must already be 6 digits.
 */
export async function verifyCode(
  deps: Deps,
  input: { requestId: string; code: string },
): Promise<VerifyResult> {
  if (!UUID_PATTERN.test(input.requestId)) return { kind: 'dead', pending: null };
  return deps.db.transaction(async (tx): Promise<VerifyResult> => {
    const [row] = await tx
      .update(signInRequests)
      .set({ attempts: sql`${signInRequests.attempts} + 1` })
      .where(
        and(
          eq(signInRequests.id, input.requestId),
          eq(signInRequests.method, 'email'),
          isNull(signInRequests.consumedAt),
          lt(signInRequests.attempts, MAX_CODE_ATTEMPTS),
        ),
      )
      .returning();
    if (!row) {
      const [existing] = await tx.select().from(signInRequests).where(eq(signInRequests.id, input.requestId));
      return { kind: 'dead', pending: existing?.method === 'email' ? pendingOf(existing) : null };
    }
    const pending = pendingOf(row);
    if (Date.parse(row.expiresAt) <= Date.now()) return { kind: 'expired', pending };
    const wrong: VerifyResult = { kind: 'wrong', pending, attemptsLeft: MAX_CODE_ATTEMPTS - row.attempts };
    if (!sameDigest(row.codeDigest, codeDigest(deps, row.id, input.code))) return wrong;
    // Only reachable for an address whose code was sent, unless an unsent code was guessed.
    const user = row.email ? await findUserByEmail(tx, row.email) : undefined;
    if (!user || !(await maySignIn(tx, user))) return wrong;
    const [consumed] = await tx
      .update(signInRequests)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(signInRequests.id, row.id), isNull(signInRequests.consumedAt)))
      .returning({ id: signInRequests.id });
    if (!consumed) return { kind: 'dead', pending };
    const redirect = await issueAuthorizationCode(tx, pending.request, user.id, 'email');
    return redirect ? { kind: 'ok', redirect } : { kind: 'dead', pending };
  });
}

/**
 * Issues Muster's authorization code for the client's request (re-checking that the client still
 * has that redirect URI) and returns the redirect: `redirect_uri?code=…&state=…`.
 */
async function issueAuthorizationCode(
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

// ------------------------------------------------------------------------------------------------
// Upstream OpenID Connect
// ------------------------------------------------------------------------------------------------

/** Records the round trip (state digest, sealed verifier and nonce) and returns the provider URL. */
export async function startUpstream(
  deps: Deps,
  upstream: Upstream,
  input: { request: ClientRequest; ip: string },
): Promise<URL> {
  const start = await upstream.start();
  await deps.db.transaction(async (tx) => {
    await purgeFinished(tx);
    await tx.insert(signInRequests).values({
      method: 'oidc',
      clientId: input.request.client_id,
      redirectUri: input.request.redirect_uri,
      codeChallenge: input.request.code_challenge,
      state: input.request.state ?? null,
      upstreamStateDigest: digestSecret(start.state),
      upstreamSealed: deps.sealer.seal(start.secrets),
      expiresAt: new Date(Date.now() + CODE_TTL_MS).toISOString(),
      ip: input.ip,
    });
  });
  return start.url;
}

export type UpstreamResult =
  | { kind: 'ok'; redirect: string }
  /** No such round trip, or already used. */
  | { kind: 'unknown' }
  | { kind: 'expired'; pending: PendingRequest }
  /** The provider reported an error (e.g. the user cancelled). */
  | { kind: 'cancelled'; pending: PendingRequest }
  | { kind: 'failed'; pending: PendingRequest; unavailable: boolean }
  | { kind: 'unverified'; pending: PendingRequest }
  | { kind: 'no_account'; pending: PendingRequest; email: string };

/**
 * The provider's redirect back: the round trip is consumed first (a callback URL works once), the
 * code is exchanged by openid-client (state, PKCE, nonce and ID token checks), and the user is
 * matched by a verified email address. Nobody is created.
 */
export async function finishUpstream(
  deps: Deps,
  upstream: Upstream,
  input: { state: string | undefined; error: string | undefined; callbackUrl: URL },
): Promise<UpstreamResult> {
  if (!input.state || input.state.length > 512) return { kind: 'unknown' };
  const [row] = await deps.db
    .update(signInRequests)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(signInRequests.upstreamStateDigest, digestSecret(input.state)),
        eq(signInRequests.method, 'oidc'),
        isNull(signInRequests.consumedAt),
      ),
    )
    .returning();
  if (!row?.upstreamSealed) return { kind: 'unknown' };
  const pending = pendingOf(row);
  if (Date.parse(row.expiresAt) <= Date.now()) return { kind: 'expired', pending };
  if (input.error !== undefined) return { kind: 'cancelled', pending };
  let secrets: UpstreamSecrets;
  try {
    secrets = deps.sealer.unseal<UpstreamSecrets>(row.upstreamSealed);
  } catch {
    // Sealed under another key (an ephemeral key and a restart): start again.
    return { kind: 'expired', pending };
  }
  let identity: Awaited<ReturnType<Upstream['finish']>>;
  try {
    identity = await upstream.finish(input.callbackUrl, secrets, input.state);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    deps.log.warn({ reason: error.message }, 'upstream sign-in failed');
    return { kind: 'failed', pending, unavailable: error.unavailable };
  }
  if (!identity.email || !identity.emailVerified) return { kind: 'unverified', pending };
  const email = normalizeEmail(identity.email);
  return deps.db.transaction(async (tx): Promise<UpstreamResult> => {
    await tx.update(signInRequests).set({ email }).where(eq(signInRequests.id, row.id));
    const user = await findUserByEmail(tx, email);
    if (!user || !(await maySignIn(tx, user))) return { kind: 'no_account', pending, email };
    const redirect = await issueAuthorizationCode(tx, pending.request, user.id, 'oidc');
    return redirect ? { kind: 'ok', redirect } : { kind: 'unknown' };
  });
}

// ------------------------------------------------------------------------------------------------
// POST /session
// ------------------------------------------------------------------------------------------------

export interface ExchangeInput {
  code: string;
  redirect_uri: string;
  code_verifier: string;
  client_id?: string | undefined;
  device_name?: string | undefined;
}

function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !CHALLENGE.test(challenge)) return false;
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return timingSafeEqual(Buffer.from(computed, 'ascii'), Buffer.from(challenge, 'ascii'));
}

function deviceName(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

const invalidSession = () => new ApiError(401, INVALID_SESSION);

interface Issued {
  user: UserRow;
  token: { id: number; secret: string; expires_at: string };
  deviceName: string | undefined;
}

/**
 * Exchanges an authorization code (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.6). The code is marked
 * used by the same statement that finds it (`UPDATE … WHERE used_at IS NULL RETURNING`), so it works
 * at most once even under parallel requests; any failed check still burns it. Presenting a used
 * code again also revokes the token issued for it (RFC 6749 §4.1.2). Every failure is 401
 * `Invalid session or user not found`.
 */
export async function exchangeCode(deps: Deps, input: ExchangeInput) {
  const digest = digestSecret(input.code);
  const device = deviceName(input.device_name);
  const issued = await deps.db.transaction(async (tx): Promise<Issued | null> => {
    const [row] = await tx
      .update(authorizationCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(authorizationCodes.codeDigest, digest), isNull(authorizationCodes.usedAt)))
      .returning();
    if (!row) {
      await revokeReplayed(tx, digest);
      return null;
    }
    const bound =
      Date.parse(row.expiresAt) > Date.now() &&
      row.redirectUri === input.redirect_uri &&
      (input.client_id === undefined || input.client_id === row.clientId) &&
      pkceMatches(input.code_verifier, row.codeChallenge);
    if (!bound) return null;
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
    if (!user) return null;
    const result = await issueSession(tx, user, device, { method: row.signInMethod, clientId: row.clientId });
    await tx
      .update(authorizationCodes)
      .set({ mobileTokenId: result.token.id })
      .where(eq(authorizationCodes.codeDigest, digest));
    return result;
  });
  if (!issued) throw invalidSession();
  return sessionResponse(deps, issued);
}

/**
 * A used code presented again: revoke the token issued for it and every successor it was rotated
 * into by POST /session/refresh (`replaced_by_id` chain), as RFC 6749 §4.1.2 recommends.
 */
async function revokeReplayed(tx: Tx, digest: string): Promise<void> {
  const [used] = await tx
    .select({ tokenId: authorizationCodes.mobileTokenId, userId: authorizationCodes.userId })
    .from(authorizationCodes)
    .where(eq(authorizationCodes.codeDigest, digest));
  if (used?.tokenId == null) return;
  const revoked = await tx.execute<{ id: number }>(sql`
    WITH RECURSIVE chain(id) AS (
      SELECT ${used.tokenId}::int
      UNION
      SELECT t.replaced_by_id FROM ${mobileTokens} t JOIN chain c ON t.id = c.id WHERE t.replaced_by_id IS NOT NULL
    )
    UPDATE ${mobileTokens} SET revoked_at = now()
     WHERE id IN (SELECT id FROM chain) AND revoked_at IS NULL
    RETURNING id`);
  if (revoked.rows.length > 0) {
    await recordAudit(tx, {
      action: 'session.code_replayed',
      actorUserId: null,
      via: 'sign_in',
      targetType: 'mobile_token',
      targetId: used.tokenId,
      metadata: { user_id: used.userId, revoked_token_ids: revoked.rows.map((r) => r.id) },
    });
  }
}

/** MUSTER_DEV_SIGN_IN only (the route refuses `dev_email` otherwise): a token for an existing user. */
export async function devSignIn(deps: Deps, input: { dev_email: string; device_name?: string | undefined }) {
  if (!deps.config.devSignIn) throw invalidSession();
  const device = deviceName(input.device_name);
  const issued = await deps.db.transaction(async (tx): Promise<Issued | null> => {
    const user = await findUserByEmail(tx, input.dev_email);
    if (!user || !(await maySignIn(tx, user))) return null;
    return issueSession(tx, user, device, { method: 'dev', clientId: null });
  });
  if (!issued) throw invalidSession();
  return sessionResponse(deps, issued);
}

/** Issues the mobile token of a completed sign-in and audits `session.create` (every sign-in method). */
async function issueSession(
  tx: Tx,
  user: Issued['user'],
  device: Issued['deviceName'],
  how: { method: string; clientId: string | null },
): Promise<Issued> {
  const token = await issueMobileToken(tx, user.id, { deviceName: device });
  const result: Issued = { user, token: { ...token, expires_at: token.expires_at! }, deviceName: device };
  await recordAudit(tx, {
    action: 'session.create',
    principal: principalOf(result),
    targetType: 'mobile_token',
    targetId: token.id,
    metadata: { method: how.method, client_id: how.clientId, device_name: device ?? null },
  });
  return result;
}

function principalOf(issued: Issued): Extract<Principal, { kind: 'mobile' }> {
  const { user, token } = issued;
  return {
    kind: 'mobile',
    user: { id: user.id, uuid: user.uuid, email: user.email, name: user.name, globalAdmin: user.globalAdmin },
    expiresAt: new Date(token.expires_at),
    credentialId: String(token.id),
    credentialName: issued.deviceName ?? null,
  };
}

/** `{token, expires_at, user: /me fields + events}` plus the OAuth token-response fields (RFC 6749 §5.1). */
async function sessionResponse(deps: Deps, issued: Issued) {
  const principal = principalOf(issued);
  const ctx: UserCtx = {
    ...deps,
    access: {
      action: 'account.me',
      principal,
      roles: NO_ROLES,
      visibility: visibilityFor(principal, NO_ROLES),
    },
  };
  const me = await getMe(ctx);
  const { events } = await listAccessibleEvents(ctx);
  return {
    token: issued.token.secret,
    expires_at: isoTimestamp(issued.token.expires_at)!,
    user: { ...me, events },
    access_token: issued.token.secret,
    token_type: 'Bearer' as const,
    expires_in: Math.max(0, Math.floor((Date.parse(issued.token.expires_at) - Date.now()) / 1000)),
  };
}
