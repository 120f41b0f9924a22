/**
 * Sign-in through the upstream OpenID Connect provider from Muster's own sign-in page
 * (docs/decisions.md "Account and sessions"): startUpstream records the round trip and sends the browser to the provider; finishUpstream
 * exchanges the provider's code (oidc.service.ts) and, for a verified email of a user who may sign
 * in, issues Muster's authorization code. Nobody is created.
 *
 * Security-critical: pinned by test/signin/oidc.test.ts.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { signInRequests } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { digestSecret } from '../../lib/secrets.js';
import {
  CODE_TTL_MS,
  issueAuthorizationCode,
  type PendingRequest,
  pendingOf,
  purgeFinished,
} from './authorize.service.js';
import { accountForSignIn } from './eligibility.service.js';
import { type Upstream, UpstreamError, type UpstreamSecrets } from './oidc.service.js';
import type { ClientRequest } from './signin.pages.js';

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
    const user = await accountForSignIn(tx, email);
    if (!user) return { kind: 'no_account', pending, email };
    const redirect = await issueAuthorizationCode(tx, pending.request, user.id, 'oidc');
    return redirect ? { kind: 'ok', redirect } : { kind: 'unknown' };
  });
}
