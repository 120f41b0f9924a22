/**
 * OAuth clients (docs/decisions.md "Account and sessions"): who may start a sign-in and where Muster may send the user back.
 * Redirect URIs are matched exactly (RFC 6749 §3.1.2.3, RFC 9700 §4.1.3), except that a registered
 * loopback URI (`http://127.0.0.1/...`, `http://[::1]/...`) accepts any port (RFC 8252 §7.3).
 * Pinned by test/signin/clients.test.ts.
 */
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { oauthClients } from '../../db/schema/index.js';
import { conflict, notFound, unprocessable } from '../../lib/errors.js';

export type OAuthClient = typeof oauthClients.$inferSelect;

/** The mobile app's client, created at start-up when absent (also the demo's client). */
export const DEFAULT_CLIENTS: readonly { client_id: string; name: string; redirect_uris: string[] }[] = [
  {
    client_id: 'muster-mobile',
    name: 'Muster mobile app',
    redirect_uris: ['muster://oauth/callback', 'http://127.0.0.1/callback'],
  },
];

const CLIENT_ID = /^[a-z0-9][a-z0-9._-]{1,63}$/;
/** Schemes that must never receive a code (script execution or local content). */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'filesystem:',
]);
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
export const MAX_REDIRECT_URI_LENGTH = 2000;

/**
 * Why a redirect URI cannot be registered, or null when it can: an absolute URI without fragment,
 * credentials or characters that would need escaping (it is echoed into a CSP header); https, a
 * loopback http URI, or a private-use scheme for native apps (RFC 8252 §7.1).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return 'is too long';
  if (!/^[\x21-\x7e]+$/.test(uri) || /[\s"'<>\\`;,]/.test(uri))
    return 'contains characters that are not allowed';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  // Only canonical forms are registered, so exact string comparison equals URL comparison.
  if (url.href !== uri) return `is not in canonical form (write it as ${url.href})`;
  if (uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `must not use the ${url.protocol} scheme`;
  if (url.protocol === 'http:' && !LOOPBACK_IPS.has(url.hostname))
    return 'may use http only for a loopback IP (127.0.0.1 or [::1])';
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && !/^[a-z][a-z0-9+.-]*:$/.test(url.protocol))
    return 'has an invalid scheme';
  return null;
}

/** Creates a client (CLI: `muster clients create`). 422 on invalid input, 409 when the id exists. */
export async function createOAuthClient(
  tx: Tx,
  input: { client_id: string; name: string; redirect_uris: readonly string[] },
): Promise<OAuthClient> {
  const clientId = input.client_id.trim();
  if (!CLIENT_ID.test(clientId))
    throw unprocessable('client_id must be 2-64 characters: lowercase letters, digits, ".", "_" or "-"');
  const name = input.name.trim();
  if (!name || name.length > 200) throw unprocessable('name is required (at most 200 characters)');
  const uris = [...new Set(input.redirect_uris.map((u) => u.trim()))];
  if (uris.length === 0 || uris.length > 20)
    throw unprocessable('Between 1 and 20 redirect URIs are required');
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw unprocessable(`Redirect URI ${uri} ${problem}`);
  }
  const [row] = await tx
    .insert(oauthClients)
    .values({ clientId, name, redirectUris: uris })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(`An OAuth client with client_id ${clientId} already exists`);
  return row;
}

/** Every registered client, by client_id (CLI: `muster clients list`). */
export function listOAuthClients(tx: Tx): Promise<OAuthClient[]> {
  return tx.select().from(oauthClients).orderBy(oauthClients.clientId);
}

/**
 * Removes a client (CLI: `muster clients revoke`): it can no longer start a sign-in, and its
 * pending sign-in requests and unused authorization codes go with it (foreign keys cascade).
 * Mobile tokens already issued stay valid (revoke those with `muster tokens revoke`). 404 when absent.
 */
export async function revokeOAuthClient(tx: Tx, clientId: string): Promise<OAuthClient> {
  const [row] = await tx.delete(oauthClients).where(eq(oauthClients.clientId, clientId)).returning();
  if (!row) throw notFound(`No OAuth client with client_id ${clientId}`);
  return row;
}

/** Creates the default clients that do not exist yet. Idempotent; call once at start-up. */
export async function ensureDefaultClients(db: Db | Tx): Promise<void> {
  for (const c of DEFAULT_CLIENTS) {
    await db
      .insert(oauthClients)
      .values({ clientId: c.client_id, name: c.name, redirectUris: c.redirect_uris })
      .onConflictDoNothing();
  }
}

export async function findClient(tx: Tx, clientId: string): Promise<OAuthClient | undefined> {
  if (!CLIENT_ID.test(clientId)) return undefined;
  const [row] = await tx.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
  return row;
}

/**
 * Whether `requested` is one of the client's registered redirect URIs: exact string match, or for a
 * registered loopback http URI the same URI with any port (RFC 8252 §7.3).
 */
export function isRegisteredRedirectUri(
  client: Pick<OAuthClient, 'redirectUris'>,
  requested: string,
): boolean {
  if (requested.length > MAX_REDIRECT_URI_LENGTH) return false;
  if (client.redirectUris.includes(requested)) return true;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_IPS.has(url.hostname) || url.href !== requested) return false;
  if (redirectUriProblem(requested) !== null) return false;
  url.port = '';
  return client.redirectUris.includes(url.href);
}

/** The CSP `form-action` source that allows a navigation to this (registered) redirect URI. */
export function cspSourceFor(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
