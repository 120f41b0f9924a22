/**
 * Muster's web pages as an OAuth client of Muster's own sign-in (docs/decisions.md "Account and sessions"): the pages reuse the
 * one-time-code sign-in (GET /api/v1/oauth/authorize) with PKCE S256, and come back to
 * `<MUSTER_BASE_URL>/signin/callback`. The client row is kept in step with the configured base URL
 * (created or updated the first time a browser starts a sign-in).
 */
import { createHash, randomBytes } from 'node:crypto';
import { oauthClients } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';

export const WEB_CLIENT_ID = 'muster-web';
export const WEB_DEVICE_NAME = 'Web browser';

export function webRedirectUri(deps: Deps): string {
  return `${deps.config.baseUrl}/signin/callback`;
}

const ensured = new WeakSet<object>();

/** Creates or updates the web client for this base URL (once per process and database). */
export async function ensureWebClient(deps: Deps): Promise<void> {
  if (ensured.has(deps.db)) return;
  const redirectUris = [webRedirectUri(deps)];
  await deps.db
    .insert(oauthClients)
    .values({ clientId: WEB_CLIENT_ID, name: 'Muster web pages', redirectUris })
    .onConflictDoUpdate({ target: oauthClients.clientId, set: { redirectUris } });
  ensured.add(deps.db);
}

/** A PKCE pair (RFC 7636): 43-character verifier, S256 challenge; and a random state. */
export function pkcePair(): { verifier: string; challenge: string; state: string } {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return { verifier, challenge, state: randomBytes(24).toString('base64url') };
}

/** The sign-in page URL for a web sign-in round trip. */
export function authorizeUrlFor(deps: Deps, challenge: string, state: string): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: WEB_CLIENT_ID,
    redirect_uri: webRedirectUri(deps),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  });
  return `/api/v1/oauth/authorize?${q.toString()}`;
}
