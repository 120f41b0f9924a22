/**
 * POST /session (docs/decisions.md "Account and sessions"): the OAuth 2.0 token endpoint, JSON or form-encoded. Public; an
 * Authorization header is ignored. Pinned by test/signin/flow.test.ts, dev.test.ts and
 * upstream-code.test.ts (the mobile app's upstream code).
 */

import type { Deps } from '../../deps.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { unprocessable } from '../../lib/errors.js';
import { devSignIn, exchangeCode } from './exchange.service.js';
import { logSerializers, RATE_LIMITS } from './signin.http.js';
import { type SessionInput, SessionResponse, sessionBody, TOKEN_REQUEST_FIELDS } from './signin.schemas.js';

export function sessionRoute(app: Api, deps: Deps): void {
  app.post(
    '/session',
    {
      config: { public: 'none', rateLimit: RATE_LIMITS.sessionPerIp },
      logSerializers,
      preValidation: async (request) => {
        const raw = request.body;
        if (!deps.config.devSignIn && raw && typeof raw === 'object' && Object.hasOwn(raw, 'dev_email'))
          throw unprocessable('body: unknown field dev_email (development sign-in is not enabled)');
        // Form-encoded (standard OAuth token request): unknown parameters are ignored (RFC 6749 §3.2).
        if (
          request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') &&
          request.body
        ) {
          const body: Record<string, unknown> = request.body;
          for (const key of Object.keys(body)) if (!TOKEN_REQUEST_FIELDS.has(key)) delete body[key];
        }
      },
      schema: {
        tags: ['account'],
        summary: 'Sign in: exchange an authorization code for a mobile token',
        security: [],
        description: [
          'The OAuth 2.0 token endpoint for Muster’s own sign-in (RFC 6749 §4.1.3 with PKCE, RFC 7636). JSON `{code, redirect_uri, code_verifier, device_name?, client_id?}`, or a standard form-encoded token request (`grant_type=authorization_code&code&redirect_uri&code_verifier&client_id`; unknown form parameters are ignored), so OAuth client libraries work unchanged.',
          'The code comes from GET /oauth/authorize (emailed one-time code, or the upstream OpenID Connect provider). Checks: the code exists, is unused (marked used atomically: single use even under parallel requests), is at most 10 minutes old, was issued for this `redirect_uri` (exact) and, when sent, this `client_id`, and `base64url(SHA-256(code_verifier))` equals its `code_challenge`. Any failure → 401 `{"error":"Invalid session or user not found"}`, and the code is burned. Presenting a used code again also revokes the token issued for it (RFC 6749 §4.1.2). Malformed body → 400/422.',
          'The deployed mobile app’s own sign-in (when MUSTER_UPSTREAM_* is configured): a code Muster did not issue, sent with a `redirect_uri` listed in MUSTER_UPSTREAM_REDIRECT_URIS, is the upstream provider’s. Muster redeems it at the provider’s token endpoint (client id and secret, with this `redirect_uri` and `code_verifier`), reads the provider’s userinfo endpoint, and signs in by the email only when the provider asserts it verified: an existing account, or a participant whose email is on a registration (any status but rejected, not banned; the account is created then). Staff accounts are never created. A refused code, an unverified email or an address nobody may sign in with → 401 as above; provider unreachable → 502.',
          '200: `{token, expires_at, user}` where `user` = GET /me fields plus `events` (as GET /events), plus `access_token` (same token), `token_type: "Bearer"` and `expires_in` (seconds) for OAuth libraries. Mobile tokens live 14 days. Audited as `session.create`.',
          'Development only: when MUSTER_DEV_SIGN_IN=true, JSON `{dev_email, device_name?}` signs in as an existing user without proof. Otherwise `dev_email` is an unknown field (422) and the field is absent from this document.',
          `Rate limited per IP (${RATE_LIMITS.sessionPerIp.max} per minute).`,
        ].join('\n\n'),
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: sessionBody(deps.config.devSignIn),
        response: { 200: SessionResponse, ...errorResponses(400, 401, 413, 422, 429, 502) },
      },
    },
    async (request, reply) => {
      reply.header('Pragma', 'no-cache');
      const body = request.body as SessionInput;
      if (body.dev_email !== undefined) {
        if (body.code !== undefined || body.code_verifier !== undefined || body.redirect_uri !== undefined)
          throw unprocessable('Send either dev_email or code, redirect_uri and code_verifier');
        return devSignIn(deps, { dev_email: body.dev_email, device_name: body.device_name });
      }
      if (body.code === undefined || body.redirect_uri === undefined || body.code_verifier === undefined)
        throw unprocessable('code, redirect_uri and code_verifier are required');
      return exchangeCode(deps, {
        code: body.code,
        redirect_uri: body.redirect_uri,
        code_verifier: body.code_verifier,
        client_id: body.client_id,
        device_name: body.device_name,
      });
    },
  );
}
