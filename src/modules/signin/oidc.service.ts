/**
 * Optional upstream OpenID Connect provider (MUSTER_OIDC_ISSUER / _CLIENT_ID / _CLIENT_SECRET),
 * spoken through openid-client: discovery, authorization code flow with PKCE (S256), state and
 * nonce, ID token validation, and the userinfo endpoint when the ID token carries no email.
 * The provider's metadata is discovered on first use and cached (a failed discovery is retried on
 * the next use). Plain http is allowed only for a loopback issuer (config.ts). Users are matched by
 * verified email by the caller (signin.service.ts); nobody is ever created here.
 * Pinned by test/signin/oidc.test.ts (a real oidc-provider instance as the upstream).
 */
import * as client from 'openid-client';
import type { OidcConfig } from '../../config.js';
import { errorCode, stringProp } from '../../lib/narrow.js';

export interface UpstreamStart {
  /** Where to send the browser. */
  url: URL;
  /** Kept server-side (sealed) until the callback. */
  secrets: UpstreamSecrets;
  /** The `state` sent upstream; the callback finds the sign-in request by its digest. */
  state: string;
}

export interface UpstreamSecrets {
  codeVerifier: string;
  nonce: string;
}

export interface UpstreamIdentity {
  email: string | null;
  emailVerified: boolean;
  subject: string;
}

/** The exchange failed: `unavailable` when the provider could not be reached or answered garbage. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly unavailable: boolean,
  ) {
    super(message);
  }
}

export interface Upstream {
  /** Shown on the button: "Sign in with <label>". */
  readonly label: string;
  /** CSP source of the provider's authorization endpoint; null if the provider cannot be reached. */
  formActionSource(): Promise<string | null>;
  start(): Promise<UpstreamStart>;
  /** Exchanges the code in `callbackUrl` (the full URL the provider redirected to). */
  finish(callbackUrl: URL, secrets: UpstreamSecrets, expectedState: string): Promise<UpstreamIdentity>;
}

const SCOPE = 'openid email';

/** `redirectUri`: Muster's callback, `<MUSTER_BASE_URL>/api/v1/oauth/oidc/callback`. */
export function createUpstream(config: OidcConfig, redirectUri: string): Upstream {
  const issuer = new URL(config.issuer);
  let discovered: Promise<client.Configuration> | null = null;

  function configuration(): Promise<client.Configuration> {
    if (!discovered) {
      const auth = config.clientSecret ? client.ClientSecretPost(config.clientSecret) : client.None();
      discovered = client
        .discovery(issuer, config.clientId, config.clientSecret, auth, {
          ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
          timeout: 10,
        })
        .catch((error: unknown) => {
          discovered = null;
          throw error;
        });
    }
    return discovered;
  }

  return {
    label: issuer.host,
    async formActionSource() {
      try {
        const endpoint = (await configuration()).serverMetadata().authorization_endpoint;
        return endpoint ? new URL(endpoint).origin : null;
      } catch {
        return null;
      }
    },
    async start() {
      const cfg = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url, secrets: { codeVerifier, nonce }, state };
    },
    async finish(callbackUrl, secrets, expectedState) {
      const cfg = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(cfg, callbackUrl, {
          pkceCodeVerifier: secrets.codeVerifier,
          expectedNonce: secrets.nonce,
          expectedState,
          idTokenExpected: true,
        });
      } catch (error) {
        throw upstreamError(error);
      }
      const claims = tokens.claims();
      if (!claims) throw new UpstreamError('the provider returned no ID token', false);
      let email = typeof claims.email === 'string' ? claims.email : null;
      let verified = claims.email_verified;
      if (email === null) {
        try {
          const info = await client.fetchUserInfo(cfg, tokens.access_token, claims.sub);
          email = typeof info.email === 'string' ? info.email : null;
          verified = info.email_verified;
        } catch (error) {
          throw upstreamError(error);
        }
      }
      // Some providers send the boolean as a string.
      const emailVerified = verified === true || verified === 'true';
      return { email, emailVerified, subject: claims.sub };
    },
  };
}

function upstreamError(error: unknown): UpstreamError {
  const answered =
    error instanceof client.ResponseBodyError ||
    error instanceof client.AuthorizationResponseError ||
    error instanceof client.WWWAuthenticateChallengeError ||
    error instanceof client.ClientError;
  return new UpstreamError(describeUpstreamError(error), !answered);
}

/** A log-safe description: the error's code and message, never request parameters or tokens. */
export function describeUpstreamError(error: unknown): string {
  if (error instanceof Error) {
    return [errorCode(error) ?? null, stringProp(error, 'error') ?? null, error.message]
      .filter(Boolean)
      .join(': ')
      .slice(0, 300);
  }
  return 'unknown error';
}
