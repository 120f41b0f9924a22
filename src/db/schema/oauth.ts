/**
 * Sign-in (docs/decisions.md "Account and sessions"): OAuth clients, pending sign-in requests (emailed one-time code or upstream
 * OpenID Connect round trip) and Muster's own authorization codes. Secrets are stored only as
 * digests (code_digest) or sealed (upstream_sealed, lib/sealed.ts). Pinned by test/signin/*.test.ts.
 */
import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, ts } from './common.js';
import { mobileTokens } from './credentials.js';

/** A registered OAuth client (e.g. the mobile app) and the redirect URIs it may use. */
export const oauthClients = pgTable('oauth_clients', {
  clientId: text('client_id').primaryKey(),
  name: text('name').notNull(),
  redirectUris: text('redirect_uris').array().notNull(),
  createdAt: createdAt(),
});

/**
 * One sign-in attempt started from GET /oauth/authorize, holding the client's request (client,
 * redirect URI, PKCE challenge, state) until the user proves their email address.
 * - `email`: `code_digest` = SHA-256 of `<id>:<6-digit code>`; `attempts` counts verifications.
 * - `oidc`: `upstream_state_digest` = SHA-256 of the state sent upstream (the callback looks the row
 *   up by it); `upstream_sealed` = the upstream PKCE verifier and nonce, sealed.
 */
export const signInRequests = pgTable(
  'sign_in_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    method: text('method', { enum: ['email', 'oidc'] }).notNull(),
    /** Lower-cased address the user typed (email method); null for the upstream method. */
    email: text('email'),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    /** The client's `state`, echoed back verbatim (not a secret of Muster's). */
    state: text('state'),
    codeDigest: text('code_digest'),
    attempts: integer('attempts').notNull().default(0),
    upstreamStateDigest: text('upstream_state_digest').unique(),
    upstreamSealed: text('upstream_sealed'),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  // (email, created_at): the per-address limits on code requests count recent rows.
  (t) => [index().on(t.expiresAt), index().on(t.email, t.createdAt)],
);

/** Muster's authorization codes: single use, 10 minutes, bound to client, redirect URI and challenge. */
export const authorizationCodes = pgTable(
  'authorization_codes',
  {
    codeDigest: text('code_digest').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** How the user proved their address: `email` (one-time code) or `oidc` (upstream provider). */
    signInMethod: text('sign_in_method', { enum: ['email', 'oidc'] }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /** The mobile token issued for this code; revoked if the code is presented again (RFC 6749 §4.1.2). */
    mobileTokenId: integer('mobile_token_id').references(() => mobileTokens.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.expiresAt)],
);
