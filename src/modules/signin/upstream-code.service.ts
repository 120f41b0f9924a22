/**
 * The upstream provider's side of POST /session for the deployed mobile app (docs/decisions.md "Account and sessions", "when an
 * upstream provider is configured"; MUSTER_UPSTREAM_*): the app ran the authorization code flow
 * with PKCE against the provider itself and hands Muster the provider's code; Muster redeems it at
 * the provider's token endpoint (its client secret, `client_secret_post`, plus the app's
 * `redirect_uri` and `code_verifier`), then reads the provider's userinfo endpoint for the email.
 * Spoken through oauth4webapi (RFC 6749 §4.1.3, RFC 7636 §4.5, OIDC Core §5.3). An ID token, if the
 * provider returns one, is validated with the token URL's origin as the expected issuer.
 * Nothing here is logged by the caller except `describe(error)` (never codes, verifiers or tokens).
 * Pinned by test/signin/upstream-code.test.ts (a real oidc-provider as the upstream).
 */
import * as oauth from 'oauth4webapi';
import type { UpstreamExchangeConfig } from '../../config.js';
import { describeUpstreamError, UpstreamError } from './oidc.service.js';

export interface UpstreamCode {
  code: string;
  redirect_uri: string;
  code_verifier: string;
}

/** What the provider says about the user; the caller matches `email` only when verified. */
export interface UpstreamClaims {
  email: string | null;
  emailVerified: boolean;
}

/** Each request to the provider must answer within this many milliseconds. */
const TIMEOUT_MS = 10_000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A redeemer bound to the configured provider; throws UpstreamError (`unavailable` on network faults). */
export function createUpstreamCodeExchange(config: UpstreamExchangeConfig) {
  const token = new URL(config.tokenUrl);
  const as: oauth.AuthorizationServer = {
    issuer: token.origin,
    token_endpoint: config.tokenUrl,
    userinfo_endpoint: config.userinfoUrl,
  };
  const client: oauth.Client = { client_id: config.clientId };
  const auth = oauth.ClientSecretPost(config.clientSecret);
  // config.ts allows plain http only for loopback hosts (development and tests).
  const insecure = LOOPBACK.has(token.hostname) || LOOPBACK.has(new URL(config.userinfoUrl).hostname);
  const options = () => ({
    signal: AbortSignal.timeout(TIMEOUT_MS),
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
  });

  return {
    /** Whether codes returned to this redirect URI may be upstream codes (exact match). */
    accepts(redirectUri: string): boolean {
      return config.redirectUris.includes(redirectUri);
    },
    async redeem(input: UpstreamCode): Promise<UpstreamClaims> {
      try {
        const params = oauth.validateAuthResponse(
          as,
          client,
          new URLSearchParams({ code: input.code }),
          oauth.skipStateCheck,
        );
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          params,
          input.redirect_uri,
          input.code_verifier,
          options(),
        );
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
        const info = await oauth.processUserInfoResponse(
          as,
          client,
          oauth.skipSubjectCheck,
          await oauth.userInfoRequest(as, client, tokens.access_token, options()),
        );
        const verified: unknown = info.email_verified;
        return {
          email: typeof info.email === 'string' ? info.email : null,
          // Some providers send the boolean as a string.
          emailVerified: verified === true || verified === 'true',
        };
      } catch (error) {
        throw new UpstreamError(describeUpstreamError(error), unreachable(error));
      }
    },
  };
}

/** No answer (network failure, timeout) or a server error: the provider, not the code, is at fault. */
function unreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  if (error instanceof TypeError && error.message === 'fetch failed') return true;
  const status = error.cause;
  return status instanceof Response && status.status >= 500;
}

export type UpstreamCodeExchange = ReturnType<typeof createUpstreamCodeExchange>;
