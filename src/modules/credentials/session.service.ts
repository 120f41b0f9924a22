/**
 * Mobile sessions (spec "POST /session/refresh"; docs/decisions.md "Account and sessions"): sign-out (DELETE /session) and
 * token rotation (POST /session/refresh). The access policy has already admitted only a live
 * mobile token (actions session.delete / session.refresh are mobile-only).
 *
 * Concurrency (quality.md "20 parallel refreshes of one mobile token → no 5xx and exactly one live
 * successor"): the old token is claimed with `UPDATE … WHERE revoked_at IS NULL RETURNING` inside
 * the transaction that inserted its successor. PostgreSQL serialises the competing UPDATEs on the
 * row lock; every loser re-checks `revoked_at`, matches nothing, answers 401 and rolls back, so its
 * successor never exists. Pinned by test/sessions/session.test.ts.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { mobileTokens } from '../../db/schema/index.js';
import type { MobileCtx } from '../../deps.js';
import { unauthorized } from '../../lib/errors.js';
import { isoTimestamp } from '../../lib/time.js';
import { getMe, listAccessibleEvents } from '../accounts/accounts.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { issueMobileToken } from './issue.service.js';

/**
 * The session's user: the spec's `{id, name, email, global_admin, events}` plus the other `/me`
 * fields, so POST /session and POST /session/refresh return the same `user` shape (docs/decisions.md "Account and sessions").
 */
export async function sessionUser(ctx: MobileCtx) {
  const [me, { events }] = [await getMe(ctx), await listAccessibleEvents(ctx)];
  return { ...me, events };
}

/** DELETE /session: revokes the presented mobile token. A concurrent sign-out that won → 401. */
export async function signOut(ctx: MobileCtx): Promise<{ success: true }> {
  const principal = ctx.access.principal;
  const id = Number(principal.credentialId);
  await ctx.db.transaction(async (tx) => {
    const revoked = await tx
      .update(mobileTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(mobileTokens.id, id), isNull(mobileTokens.revokedAt)))
      .returning({ id: mobileTokens.id });
    if (revoked.length === 0) throw unauthorized();
    await recordAudit(tx, { action: 'session.delete', principal, targetType: 'mobile_token', targetId: id });
  });
  return { success: true };
}

/**
 * POST /session/refresh: issues a successor (new 14 days, same device name), then revokes the
 * presented token pointing `replaced_by_id` at it, in one transaction. Exactly one of any number
 * of concurrent refreshes of one token succeeds; the others get 401 and leave nothing behind.
 */
export async function refreshSession(ctx: MobileCtx) {
  const principal = ctx.access.principal;
  const oldId = Number(principal.credentialId);
  // Read first: if this fails, nothing has been rotated (the client keeps a working token).
  const user = await sessionUser(ctx);
  const issued = await ctx.db.transaction(async (tx) => {
    const next = await issueMobileToken(tx, principal.user.id, {
      deviceName: principal.credentialName ?? undefined,
    });
    const claimed = await tx
      .update(mobileTokens)
      .set({ revokedAt: sql`now()`, replacedById: next.id })
      .where(
        and(
          eq(mobileTokens.id, oldId),
          isNull(mobileTokens.revokedAt),
          gt(mobileTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: mobileTokens.id });
    // Lost the race (or the token died since authentication): roll back, successor included.
    if (claimed.length === 0) throw unauthorized();
    await recordAudit(tx, {
      action: 'session.refresh',
      principal,
      targetType: 'mobile_token',
      targetId: next.id,
      metadata: { replaced_token_id: oldId },
    });
    return next;
  });
  return {
    token: issued.secret,
    expires_at: isoTimestamp(issued.expires_at)!,
    user,
  };
}
