/**
 * POST /session (docs/decisions.md "Account and sessions"): exchanges an authorization code with PKCE for a mobile token, or
 * (MUSTER_DEV_SIGN_IN only) signs in by `dev_email`; answers `{token, expires_at, user}`.
 * Every failure is 401 `Invalid session or user not found`; unknown users are never created.
 *
 * Security-critical: pinned by test/signin/flow.test.ts, dev.test.ts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type AccessFor, authorize } from '../../access/authorize.js';
import type { UpstreamExchangeConfig } from '../../config.js';
import type { Tx } from '../../db/client.js';
import { authorizationCodes, mobileTokens, users } from '../../db/schema/index.js';
import type { Deps, UserCtx } from '../../deps.js';
import { ApiError } from '../../lib/errors.js';
import { digestSecret } from '../../lib/secrets.js';
import { isoTimestamp } from '../../lib/time.js';
import { getMe, listAccessibleEvents } from '../accounts/accounts.service.js';
import type { UserRow } from '../accounts/users.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { issueMobileToken } from '../credentials/issue.service.js';
import { CHALLENGE, VERIFIER_PATTERN } from './authorize.service.js';
import { accountForSignIn, mayReceiveSignIn } from './eligibility.service.js';
import { UpstreamError } from './oidc.service.js';
import {
  createUpstreamCodeExchange,
  type UpstreamClaims,
  type UpstreamCodeExchange,
} from './upstream-code.service.js';

export const INVALID_SESSION = 'Invalid session or user not found';
const VERIFIER = new RegExp(VERIFIER_PATTERN);

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
  /** The gate's answer for the new token (action `account.me`), taken while it is certainly live. */
  access: AccessFor<'account.me'>;
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
  const issued = await deps.db.transaction(async (tx): Promise<Issued | null | 'not_ours'> => {
    const [row] = await tx
      .update(authorizationCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(authorizationCodes.codeDigest, digest), isNull(authorizationCodes.usedAt)))
      .returning();
    if (!row) return (await revokeReplayed(tx, digest)) ? null : 'not_ours';
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
  if (issued === 'not_ours') return exchangeUpstreamCode(deps, input, device);
  if (!issued) throw invalidSession();
  return sessionResponse(deps, issued);
}

const exchangers = new WeakMap<UpstreamExchangeConfig, UpstreamCodeExchange>();

/**
 * A code Muster never issued: when MUSTER_UPSTREAM_* is configured and `redirect_uri` is one of
 * MUSTER_UPSTREAM_REDIRECT_URIS, it is the upstream provider's code (the deployed mobile app's
 * sign-in): redeemed there server-side, then the provider's verified email must belong to someone
 * who may sign in (eligibility.service.ts). Otherwise, or when the provider refuses the code or
 * the email is not verified: 401. Provider unreachable: 502.
 */
async function exchangeUpstreamCode(deps: Deps, input: ExchangeInput, device: string | undefined) {
  const config = deps.config.upstreamExchange;
  if (!config) throw invalidSession();
  let exchanger = exchangers.get(config);
  if (!exchanger) {
    exchanger = createUpstreamCodeExchange(config);
    exchangers.set(config, exchanger);
  }
  if (!exchanger.accepts(input.redirect_uri) || !VERIFIER.test(input.code_verifier)) throw invalidSession();
  let claims: UpstreamClaims;
  try {
    claims = await exchanger.redeem(input);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    deps.log.warn({ reason: error.message }, 'upstream code exchange failed');
    if (error.unavailable) throw new ApiError(502, 'The identity provider cannot be reached. Try again.');
    throw invalidSession();
  }
  if (!claims.email || !claims.emailVerified) throw invalidSession();
  const email = claims.email;
  const issued = await deps.db.transaction(async (tx): Promise<Issued | null> => {
    const user = await accountForSignIn(tx, email);
    return user && issueSession(tx, user, device, { method: 'upstream', clientId: config.clientId });
  });
  if (!issued) throw invalidSession();
  return sessionResponse(deps, issued);
}

/**
 * A used code presented again: revoke the token issued for it and every successor it was rotated
 * into by POST /session/refresh (`replaced_by_id` chain), as RFC 6749 §4.1.2 recommends. False
 * when Muster never issued this code.
 */
async function revokeReplayed(tx: Tx, digest: string): Promise<boolean> {
  const [used] = await tx
    .select({ tokenId: authorizationCodes.mobileTokenId, userId: authorizationCodes.userId })
    .from(authorizationCodes)
    .where(eq(authorizationCodes.codeDigest, digest));
  if (!used) return false;
  if (used.tokenId == null) return true;
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
  return true;
}

/** MUSTER_DEV_SIGN_IN only (the route refuses `dev_email` otherwise): a token for an existing user. */
export async function devSignIn(deps: Deps, input: { dev_email: string; device_name?: string | undefined }) {
  if (!deps.config.devSignIn) throw invalidSession();
  const device = deviceName(input.device_name);
  const issued = await deps.db.transaction(async (tx): Promise<Issued | null> => {
    const { allowed, user } = await mayReceiveSignIn(tx, input.dev_email);
    if (!allowed || !user) return null;
    return issueSession(tx, user, device, { method: 'dev', clientId: null });
  });
  if (!issued) throw invalidSession();
  return sessionResponse(deps, issued);
}

/** Issues the mobile token of a completed sign-in and audits `session.create` (every sign-in method). */
async function issueSession(
  tx: Tx,
  user: Issued['user'],
  device: string | undefined,
  how: { method: string; clientId: string | null },
): Promise<Issued> {
  const token = await issueMobileToken(tx, user.id, { deviceName: device });
  // The new token goes through the gate like a request to GET /me would: the account reads below
  // get the gate's own context for it rather than one assembled here.
  const access = await authorize(tx, 'account.me', token.secret, {});
  const result: Issued = { user, token: { ...token, expires_at: token.expires_at! }, access };
  await recordAudit(tx, {
    action: 'session.create',
    principal: access.principal,
    targetType: 'mobile_token',
    targetId: token.id,
    metadata: { method: how.method, client_id: how.clientId, device_name: device ?? null },
  });
  return result;
}

/** `{token, expires_at, user: /me fields + events}` plus the OAuth token-response fields (RFC 6749 §5.1). */
async function sessionResponse(deps: Deps, issued: Issued) {
  const ctx: UserCtx = { ...deps, access: issued.access };
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
