/**
 * Sign-in with the upstream OpenID Connect provider from Muster's sign-in page (docs/decisions.md "Account and sessions"):
 * POST /oauth/authorize/oidc sends the browser to the provider; GET /oauth/oidc/callback finishes
 * the round trip and returns to the app with Muster's authorization code. 404 when no provider is
 * configured. Pinned by test/signin/oidc.test.ts.
 */

import type { Deps } from '../../deps.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { logSerializers, type PagesEnv, RATE_LIMITS, sendFailure, tags } from './signin.http.js';
import { authorizeUrl, type ClientRequest, messagePage } from './signin.pages.js';
import { CallbackQuery, PageError, Redirect, UpstreamForm } from './signin.schemas.js';
import { finishUpstream, startUpstream } from './upstream.service.js';

export function upstreamRoutes(app: Api, deps: Deps, env: PagesEnv): void {
  const { base, upstream, clientRequestOf } = env;
  app.post(
    '/oauth/authorize/oidc',
    {
      config: { public: 'none', rateLimit: RATE_LIMITS.upstreamPerIp },
      logSerializers,
      schema: {
        tags,
        security: [],
        summary: 'Sign in with the upstream OpenID Connect provider',
        description: [
          'Form post from the sign-in page (the client request fields as hidden inputs). Only when MUSTER_OIDC_ISSUER and MUSTER_OIDC_CLIENT_ID are configured; otherwise 404.',
          'Redirects (302) to the provider’s authorization endpoint (openid-client: discovery, PKCE S256, state and nonce; scope `openid email`). The PKCE verifier and nonce wait server-side, sealed, in a sign-in request found by the digest of `state` (no cookies). The round trip must finish within 10 minutes.',
          `Provider unreachable: 502 page. Rate limited per IP (${RATE_LIMITS.upstreamPerIp.max} per 10 minutes).`,
        ].join('\n\n'),
        consumes: ['application/x-www-form-urlencoded'],
        body: UpstreamForm,
        response: {
          302: Redirect('To the provider'),
          ...Object.fromEntries(
            ([400, 404, 422, 429, 502] as const).map((s) => [
              s,
              PageError('Not configured, invalid request, unreachable provider'),
            ]),
          ),
        },
      },
    },
    async (request, reply) => {
      if (!upstream) throw new ApiError(404, 'Sign-in with an external provider is not configured');
      const check = await clientRequestOf(request.body);
      let url: URL;
      try {
        url = await startUpstream(deps, upstream, { request: check.request, ip: request.ip });
      } catch (error) {
        request.log.warn(
          { reason: error instanceof Error ? error.message : 'unknown' },
          'upstream provider unreachable',
        );
        throw new ApiError(
          502,
          `${upstream.label} cannot be reached right now. Try again, or use your email address.`,
        );
      }
      return reply.redirect(url.href, 302);
    },
  );

  app.get(
    '/oauth/oidc/callback',
    {
      config: { public: 'none', rateLimit: RATE_LIMITS.callbackPerIp },
      logSerializers,
      schema: {
        tags,
        security: [],
        summary: 'Redirect URI registered at the upstream OpenID Connect provider',
        description: [
          'The provider sends the browser here with `code` and `state` (register `<MUSTER_BASE_URL>/api/v1/oauth/oidc/callback` at the provider). Only when an upstream provider is configured; otherwise 404.',
          'The round trip is consumed (a callback works once), the code is exchanged with openid-client (state, PKCE, nonce and ID token checks; the userinfo endpoint when the ID token has no email), and the user is matched by email, which the provider must assert as verified (`email_verified`). Nobody is created: an address without a Muster account (or of a banned participant) is refused (403 page).',
          'Success: 302 to the original client’s `redirect_uri?code=…&state=…` with Muster’s own authorization code (exchange it with POST /session).',
          'Unknown, used or expired `state`: 400; the provider reported an error or refused the code: 400; unverified email: 403; provider unreachable: 502.',
        ].join('\n\n'),
        querystring: CallbackQuery,
        response: {
          302: Redirect('Signed in: back to the client with `code` and `state`'),
          ...Object.fromEntries(
            ([400, 403, 404, 422, 429, 502] as const).map((s) => [s, PageError('Refused or failed sign-in')]),
          ),
        },
      },
    },
    async (request, reply) => {
      if (!upstream) throw new ApiError(404, 'Sign-in with an external provider is not configured');
      const query = request.query;
      const callbackUrl = new URL(`${deps.config.baseUrl}${base}/oidc/callback`);
      const q = request.url.indexOf('?');
      if (q >= 0) callbackUrl.search = request.url.slice(q);
      const result = await finishUpstream(deps, upstream, {
        state: query.state,
        error: query.error,
        callbackUrl,
      });
      const label = upstream.label;
      const fail = (status: number, message: string, req?: ClientRequest) =>
        sendFailure(
          request,
          reply,
          status,
          message,
          messagePage({ title: 'Sign-in not completed', message, startOver: req && authorizeUrl(base, req) }),
        );
      switch (result.kind) {
        case 'ok':
          return reply.redirect(result.redirect, 302);
        case 'unknown':
          return fail(
            400,
            'This sign-in link is not valid or was already used. Go back to the app and start again.',
          );
        case 'expired':
          return fail(400, 'This sign-in took too long. Start again.', result.pending.request);
        case 'cancelled':
          return fail(400, `Sign-in with ${label} was cancelled or refused.`, result.pending.request);
        case 'failed':
          return fail(
            result.unavailable ? 502 : 400,
            `${label} did not confirm your sign-in. Try again, or use your email address.`,
            result.pending.request,
          );
        case 'unverified':
          return fail(
            403,
            `${label} did not confirm that your email address is verified. Verify it there, or sign in with a code sent to your email address.`,
            result.pending.request,
          );
        case 'no_account':
          return fail(
            403,
            `There is no Muster account you can sign in to with ${result.email}. Ask your event's organisers to add you, or use another address.`,
            result.pending.request,
          );
      }
    },
  );
}
