/**
 * Muster's own sign-in pages (docs/decisions.md "Account and sessions"): GET /oauth/authorize (the OAuth 2.0 authorization
 * endpoint), POST /oauth/authorize/email (email a one-time code) and POST /oauth/authorize/verify
 * (check it and return to the app with an authorization code). Public; an Authorization header is
 * ignored. Pinned by test/signin/flow.test.ts, codes.test.ts, pages.test.ts.
 */

import type { Deps } from '../../deps.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { CODE_TTL_MINUTES, checkAuthorizeRequest } from './authorize.service.js';
import { cspSourceFor } from './clients.service.js';
import {
  CODE_REQUEST_LIMITS,
  CodeRequestsExceeded,
  findPendingRequest,
  isPlausibleEmail,
  MAX_CODE_ATTEMPTS,
  requestCode,
  verifyCode,
} from './email-code.service.js';
import {
  CODE_REQUEST_MIN_MS,
  codePageFor,
  logSerializers,
  type PagesEnv,
  RATE_LIMITS,
  sendFailure,
  sendPage,
  tags,
} from './signin.http.js';
import { authorizeUrl, messagePage, signInPage } from './signin.pages.js';
import { AuthorizeQuery, EmailForm, HtmlPage, PageError, Redirect, VerifyForm } from './signin.schemas.js';

export function authorizeRoutes(app: Api, deps: Deps, env: PagesEnv): void {
  const { base, upstreamFor, clientRequestOf } = env;
  app.get(
    '/oauth/authorize',
    {
      config: { public: 'none', rateLimit: RATE_LIMITS.authorizePage },
      logSerializers,
      schema: {
        tags,
        security: [],
        summary: 'Sign-in page (OAuth 2.0 authorization endpoint)',
        description: [
          'Authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636): `response_type=code`, `client_id`, `redirect_uri`, `code_challenge`, `code_challenge_method=S256` (plain is refused), optional `state`. Other parameters (e.g. `scope`) are ignored.',
          'Renders an HTML page asking for an email address (and, when an upstream OpenID Connect provider is configured, a "Sign in with <provider>" button). A one-time code is emailed; POST /oauth/authorize/verify then redirects to `redirect_uri?code=…&state=…`.',
          'Unknown `client_id` or a `redirect_uri` not registered for it: an error page (400), never a redirect. Any other invalid parameter: 302 to `redirect_uri?error=invalid_request|unsupported_response_type&error_description=…&state=…` (RFC 6749 §4.1.2.1). A repeated or over-long parameter: 422 error page.',
          'The page sends a strict Content-Security-Policy (no scripts, no external assets, no framing). Rate limited per IP (120/min).',
        ].join('\n\n'),
        querystring: AuthorizeQuery,
        response: {
          200: HtmlPage('The sign-in page'),
          302: Redirect('Parameter error, sent back to the client (RFC 6749 §4.1.2.1)'),
          400: PageError('Unknown client or unregistered redirect_uri'),
          422: PageError('Repeated or over-long parameter'),
          429: PageError('Rate limited'),
        },
      },
    },
    async (request, reply) => {
      const check = await checkAuthorizeRequest(deps.db, request.query);
      if (!check.ok) {
        if (check.redirect) return reply.redirect(check.redirect, 302);
        throw new ApiError(400, check.message);
      }
      const page = signInPage({
        base,
        clientName: check.client.name,
        request: check.request,
        upstream: await upstreamFor(),
        redirectSource: cspSourceFor(check.request.redirect_uri),
      });
      return sendPage(reply, 200, page);
    },
  );

  app.post(
    '/oauth/authorize/email',
    {
      config: { public: 'none', rateLimit: RATE_LIMITS.codeRequestsPerIp },
      logSerializers,
      schema: {
        tags,
        security: [],
        summary: 'Email a one-time sign-in code',
        description: [
          'Form post (`application/x-www-form-urlencoded`) from the sign-in page: `email` plus the client request fields as hidden inputs (re-validated; a tampered one is a 400 error page).',
          `Records a sign-in request and, only when the address belongs to an existing user who may sign in, emails a random 6-digit code valid ${CODE_TTL_MINUTES} minutes. Users are never created. A participant-only user (no global admin, event or series role) whose address is on an active ban gets no code.`,
          'The answer is the same code-entry page ("if this address belongs to an account, we sent a code"), after at least 300 ms, whether or not a code was sent: the page does not reveal who has an account. A malformed address re-renders the form (422).',
          `Rate limited (429 + Retry-After): ${RATE_LIMITS.codeRequestsPerIp.max} per IP per 10 minutes; per address, whether or not it has an account, ${CODE_REQUEST_LIMITS.map((l) => `${l.max} per ${l.windowMinutes < 60 ? `${l.windowMinutes} minutes` : `${l.windowMinutes / 60} hours`}`).join(' and ')}.`,
        ].join('\n\n'),
        consumes: ['application/x-www-form-urlencoded'],
        body: EmailForm,
        response: {
          200: HtmlPage('The code-entry page'),
          ...Object.fromEntries(
            ([400, 422, 429] as const).map((s) => [
              s,
              PageError('Invalid request, malformed address, rate limited'),
            ]),
          ),
        },
      },
    },
    async (request, reply) => {
      const started = Date.now();
      const body = request.body;
      const check = await clientRequestOf(body);
      const email = (body.email ?? '').trim();
      if (!isPlausibleEmail(email)) {
        const message = 'Enter a valid email address, like name@example.org.';
        const page = signInPage({
          base,
          clientName: check.client.name,
          request: check.request,
          email,
          error: message,
          upstream: await upstreamFor(),
          redirectSource: cspSourceFor(check.request.redirect_uri),
        });
        return sendFailure(request, reply, 422, message, page);
      }
      let requestId: string;
      try {
        ({ requestId } = await requestCode(deps, { request: check.request, email, ip: request.ip }));
      } catch (error) {
        if (error instanceof CodeRequestsExceeded) reply.header('Retry-After', String(error.retryAfter));
        throw error;
      }
      const wait = CODE_REQUEST_MIN_MS - (Date.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return sendPage(reply, 200, codePageFor({ base, requestId, email, request: check.request }));
    },
  );

  app.post(
    '/oauth/authorize/verify',
    {
      config: { public: 'none', rateLimit: RATE_LIMITS.verifyPerIp },
      logSerializers,
      schema: {
        tags,
        security: [],
        summary: 'Check the emailed code and return to the app',
        description: [
          'Form post from the code-entry page: `request_id` (hidden) and `code`.',
          `Each sign-in request allows ${MAX_CODE_ATTEMPTS} attempts; after that it is dead and even the right code is refused. An expired request (${CODE_TTL_MINUTES} minutes) is refused. Codes are compared as salted SHA-256 digests in constant time; the code itself is never stored.`,
          'Right code: 302 to `redirect_uri?code=<authorization code>&state=<state>`. The authorization code is single use, valid 10 minutes, and bound to the client, the redirect URI and the PKCE challenge; exchange it with POST /session.',
          'Wrong code: the code page again with the attempts left (400); not 6 digits: 422; dead or expired: 400 with a link to start again.',
          `Rate limited per IP (${RATE_LIMITS.verifyPerIp.max} per 10 minutes).`,
        ].join('\n\n'),
        consumes: ['application/x-www-form-urlencoded'],
        body: VerifyForm,
        response: {
          302: Redirect('Signed in: back to the client with `code` and `state`'),
          ...Object.fromEntries(
            ([400, 422, 429] as const).map((s) => [
              s,
              PageError('Wrong, malformed, expired or used code; rate limited'),
            ]),
          ),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const requestId = body.request_id ?? '';
      const code = (body.code ?? '').replace(/[\s-]/g, '');
      if (!/^\d{6}$/.test(code)) {
        // Not a code at all: no attempt is used; the same form again.
        const message = 'Enter the 6-digit code from the email.';
        const pending = await findPendingRequest(deps, requestId);
        const page = pending
          ? codePageFor({
              base,
              requestId,
              email: pending.email ?? '',
              request: pending.request,
              error: message,
            })
          : messagePage({ title: 'Enter your code', message });
        return sendFailure(request, reply, 422, message, page);
      }
      const result = await verifyCode(deps, { requestId, code });
      switch (result.kind) {
        case 'ok':
          return reply.redirect(result.redirect, 302);
        case 'wrong': {
          const message =
            result.attemptsLeft > 0
              ? `That code is not correct. ${result.attemptsLeft} attempt${result.attemptsLeft === 1 ? '' : 's'} left.`
              : 'That code is not correct, and no attempts are left. Request a new code.';
          const page = codePageFor({
            base,
            requestId: result.pending.id,
            email: result.pending.email ?? '',
            request: result.pending.request,
            error: message,
          });
          return sendFailure(request, reply, 400, message, page);
        }
        case 'expired':
        case 'dead': {
          const message =
            result.kind === 'expired'
              ? 'This code has expired. Request a new one.'
              : 'This code can no longer be used. Request a new one.';
          const startOver = result.pending ? authorizeUrl(base, result.pending.request) : undefined;
          return sendFailure(
            request,
            reply,
            400,
            message,
            messagePage({ title: 'Code not accepted', message, startOver }),
          );
        }
      }
    },
  );
}
