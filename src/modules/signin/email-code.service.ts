/**
 * Sign-in by a one-time code emailed to the user (docs/decisions.md "Account and sessions"): requestCode records the request
 * and emails a 6-digit code to an address that may sign in; verifyCode checks it (5 attempts,
 * 10 minutes) and issues Muster's authorization code. Unknown and refused addresses get an
 * identical request whose code is never sent, so nothing reveals who has an account.
 *
 * Security-critical: pinned by test/signin/codes.test.ts, flow.test.ts, ratelimit.test.ts.
 */
import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { signInRequests } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../lib/errors.js';
import { EMAIL_PATTERN, normalizeEmail, UUID_PATTERN } from '../../lib/identifiers.js';
import { queueEmail } from '../email/email.service.js';
import {
  CODE_TTL_MINUTES,
  CODE_TTL_MS,
  issueAuthorizationCode,
  type PendingRequest,
  pendingOf,
  purgeFinished,
} from './authorize.service.js';
import { accountForSignIn, mayReceiveSignIn } from './eligibility.service.js';
import type { ClientRequest } from './signin.pages.js';

/** Verifications allowed per emailed code; the 6th is refused even with the right code. */
export const MAX_CODE_ATTEMPTS = 5;

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
    const may = await mayReceiveSignIn(tx, email);
    if (may.allowed) {
      await queueEmail(deps, tx, {
        to: may.user?.email ?? email,
        template: 'sign_in_code',
        vars: { code, expires_minutes: CODE_TTL_MINUTES, name: may.name },
      });
    }
    return { requestId: id };
  });
}

export type VerifyResult =
  | { kind: 'ok'; redirect: string }
  | { kind: 'wrong'; pending: PendingRequest; attemptsLeft: number }
  | { kind: 'expired'; pending: PendingRequest }
  /** Unknown id, already used, or out of attempts. */
  | { kind: 'dead'; pending: PendingRequest | null };

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
    if (!row.email || !(await mayReceiveSignIn(tx, row.email)).allowed) return wrong;
    const [consumed] = await tx
      .update(signInRequests)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(signInRequests.id, row.id), isNull(signInRequests.consumedAt)))
      .returning({ id: signInRequests.id });
    if (!consumed) return { kind: 'dead', pending };
    const user = await accountForSignIn(tx, row.email);
    if (!user) return wrong;
    const redirect = await issueAuthorizationCode(tx, pending.request, user.id, 'email');
    return redirect ? { kind: 'ok', redirect } : { kind: 'dead', pending };
  });
}
