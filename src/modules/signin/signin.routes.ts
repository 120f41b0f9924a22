/**
 * Sign-in routes (contract §3), all public (`config: { public: 'none' }`; an Authorization header
 * is ignored): the sign-in pages under /oauth and the token endpoint POST /session.
 *
 * Scoped to this plugin: an `application/x-www-form-urlencoded` parser (HTML forms and standard
 * OAuth token requests), an error handler that answers browsers (`Accept: text/html`) with an HTML
 * page and everyone else with the usual `{error}`, and a request-log serializer that drops query
 * strings (they carry upstream codes and states). Rate limits per route (429 + Retry-After).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { ApiError, badRequest, httpStatusOf, unprocessable } from '../../lib/errors.js';
import { cspSourceFor } from './clients.service.js';
import { createUpstream, type Upstream } from './oidc.service.js';
import {
  authorizeUrl,
  type ClientRequest,
  codePage,
  messagePage,
  type Page,
  signInPage,
} from './signin.pages.js';
import {
  AuthorizeQuery,
  CallbackQuery,
  EmailForm,
  HtmlPage,
  PageError,
  Redirect,
  type SessionInput,
  SessionResponse,
  sessionBody,
  TOKEN_REQUEST_FIELDS,
  UpstreamForm,
  VerifyForm,
} from './signin.schemas.js';
import * as service from './signin.service.js';

const tags = ['sign-in'];
const TEN_MINUTES = 10 * 60 * 1000;

/**
 * Per-IP limits (quality.md: rate limits on sign-in and code requests), generous enough for a venue
 * where many staff share one address; the per-address limits on code requests live in the database
 * (service.CODE_REQUEST_LIMITS: 5 per 10 minutes, 20 per day).
 */
export const RATE_LIMITS = {
  authorizePage: { max: 120, timeWindow: 60 * 1000 },
  codeRequestsPerIp: { max: 30, timeWindow: TEN_MINUTES },
  verifyPerIp: { max: 60, timeWindow: TEN_MINUTES },
  upstreamPerIp: { max: 30, timeWindow: TEN_MINUTES },
  callbackPerIp: { max: 30, timeWindow: TEN_MINUTES },
  sessionPerIp: { max: 60, timeWindow: 60 * 1000 },
} as const;

/** Code requests answer no sooner than this, so timing does not tell whether an address has an account. */
const CODE_REQUEST_MIN_MS = 300;

/** The request log line without the query string. */
const logSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: req.url.split('?')[0],
    host: req.host,
    remoteAddress: req.ip,
  }),
};

function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/i.test(request.headers.accept ?? '');
}

function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply
    .status(status)
    .header('Content-Security-Policy', page.csp)
    .type('text/html; charset=utf-8')
    .send(page.html);
}

/** An unsuccessful outcome: an HTML page for browsers, `{error}` for everyone else. */
function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  page: Page,
): FastifyReply {
  if (!wantsHtml(request)) return reply.status(status).send({ error: message });
  return sendPage(reply, status, page);
}

function parseForm(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
) {
  const out: Record<string, string> = Object.create(null);
  for (const [key, value] of new URLSearchParams(body.toString())) {
    // RFC 6749 §3.1: parameters must not be repeated.
    if (Object.hasOwn(out, key)) {
      done(badRequest(`Parameter ${key.slice(0, 50)} is repeated`));
      return;
    }
    out[key] = value;
  }
  done(null, out);
}

export function signinRoutes(app: Api, deps: Deps): void {
  if (deps.config.devSignIn) {
    deps.log.warn(
      'MUSTER_DEV_SIGN_IN is enabled: POST /session accepts {dev_email} without any proof. Never in production.',
    );
  }
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      parseForm,
    );
    await scope.register(async (pages) => pageRoutes(pages, deps));
    sessionRoute(scope, deps);
  });
}

// ------------------------------------------------------------------------------------------------
// Pages
// ------------------------------------------------------------------------------------------------

function pageRoutes(app: Api, deps: Deps): void {
  const base = `${app.prefix}/oauth`;
  const upstream: Upstream | null = deps.config.oidc
    ? createUpstream(deps.config.oidc, `${deps.config.baseUrl}${base}/oidc/callback`)
    : null;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Non-browsers: the API's one error handler ({error}, same status rules).
    if (!wantsHtml(request)) throw error;
    // Same status rules as http/errors.ts: validation 422, body too large 413, unreadable body 400.
    const status = httpStatusOf(error);
    if (status >= 500 && !(error instanceof ApiError))
      request.log.error({ err: error }, 'sign-in page error');
    const title = status === 429 ? 'Please wait' : 'Sign-in problem';
    const message =
      error instanceof ApiError
        ? error.message
        : status === 429
          ? `Too many attempts. Try again in ${Math.max(1, Math.ceil(Number(reply.getHeader('retry-after') ?? 60) / 60))} minute(s).`
          : status >= 500
            ? 'Something went wrong. Please try again.'
            : 'This sign-in request is not valid. Go back to the app and start again.';
    return sendPage(reply, status, messagePage({ title, message }));
  });

  async function upstreamFor(): Promise<{ label: string; formAction: string } | null> {
    if (!upstream) return null;
    const source = await upstream.formActionSource();
    if (!source) {
      deps.log.warn('the upstream OpenID Connect provider is unreachable; its button is hidden');
      return null;
    }
    return { label: upstream.label, formAction: source };
  }

  /** Re-validates the client request carried by a form; a tampered one is a plain error page. */
  async function clientRequestOf(params: service.AuthorizeParams) {
    const check = await service.checkAuthorizeRequest(deps.db, params);
    if (!check.ok) throw new ApiError(400, check.message);
    return check;
  }

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
      const check = await service.checkAuthorizeRequest(deps.db, request.query);
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
          `Records a sign-in request and, only when the address belongs to an existing user who may sign in, emails a random 6-digit code valid ${service.CODE_TTL_MINUTES} minutes. Users are never created. A participant-only user (no global admin, event or series role) whose address is on an active ban gets no code.`,
          'The answer is the same code-entry page ("if this address belongs to an account, we sent a code"), after at least 300 ms, whether or not a code was sent: the page does not reveal who has an account. A malformed address re-renders the form (422).',
          `Rate limited (429 + Retry-After): ${RATE_LIMITS.codeRequestsPerIp.max} per IP per 10 minutes; per address, whether or not it has an account, ${service.CODE_REQUEST_LIMITS.map((l) => `${l.max} per ${l.windowMinutes < 60 ? `${l.windowMinutes} minutes` : `${l.windowMinutes / 60} hours`}`).join(' and ')}.`,
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
      if (!service.isPlausibleEmail(email)) {
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
        ({ requestId } = await service.requestCode(deps, { request: check.request, email, ip: request.ip }));
      } catch (error) {
        if (error instanceof service.CodeRequestsExceeded)
          reply.header('Retry-After', String(error.retryAfter));
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
          `Each sign-in request allows ${service.MAX_CODE_ATTEMPTS} attempts; after that it is dead and even the right code is refused. An expired request (${service.CODE_TTL_MINUTES} minutes) is refused. Codes are compared as salted SHA-256 digests in constant time; the code itself is never stored.`,
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
        const pending = await service.findPendingRequest(deps, requestId);
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
      const result = await service.verifyCode(deps, { requestId, code });
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
        url = await service.startUpstream(deps, upstream, { request: check.request, ip: request.ip });
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
      const result = await service.finishUpstream(deps, upstream, {
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

function codePageFor(opts: {
  base: string;
  requestId: string;
  email: string;
  request: ClientRequest;
  error?: string;
}): Page {
  return codePage({
    base: opts.base,
    requestId: opts.requestId,
    email: opts.email,
    expiresMinutes: service.CODE_TTL_MINUTES,
    error: opts.error,
    startOver: authorizeUrl(opts.base, opts.request),
    redirectSource: cspSourceFor(opts.request.redirect_uri),
  });
}

// ------------------------------------------------------------------------------------------------
// POST /session
// ------------------------------------------------------------------------------------------------

function sessionRoute(app: Api, deps: Deps): void {
  app.post(
    '/session',
    {
      config: { public: 'none', rateLimit: RATE_LIMITS.sessionPerIp },
      logSerializers,
      preValidation: async (request) => {
        const raw = request.body as Record<string, unknown> | undefined;
        if (!deps.config.devSignIn && raw && typeof raw === 'object' && Object.hasOwn(raw, 'dev_email'))
          throw unprocessable('body: unknown field dev_email (development sign-in is not enabled)');
        // Form-encoded (standard OAuth token request): unknown parameters are ignored (RFC 6749 §3.2).
        if (
          request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') &&
          request.body
        ) {
          const body = request.body as Record<string, string>;
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
          '200: `{token, expires_at, user}` where `user` = GET /me fields plus `events` (as GET /events), plus `access_token` (same token), `token_type: "Bearer"` and `expires_in` (seconds) for OAuth libraries. Mobile tokens live 14 days. Audited as `session.create`.',
          'Development only: when MUSTER_DEV_SIGN_IN=true, JSON `{dev_email, device_name?}` signs in as an existing user without proof. Otherwise `dev_email` is an unknown field (422) and the field is absent from this document.',
          `Rate limited per IP (${RATE_LIMITS.sessionPerIp.max} per minute).`,
        ].join('\n\n'),
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: sessionBody(deps.config.devSignIn),
        response: { 200: SessionResponse, ...errorResponses(400, 401, 413, 422, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Pragma', 'no-cache');
      const body = request.body as SessionInput;
      if (body.dev_email !== undefined) {
        if (body.code !== undefined || body.code_verifier !== undefined || body.redirect_uri !== undefined)
          throw unprocessable('Send either dev_email or code, redirect_uri and code_verifier');
        return service.devSignIn(deps, { dev_email: body.dev_email, device_name: body.device_name });
      }
      if (body.code === undefined || body.redirect_uri === undefined || body.code_verifier === undefined)
        throw unprocessable('code, redirect_uri and code_verifier are required');
      return service.exchangeCode(deps, {
        code: body.code,
        redirect_uri: body.redirect_uri,
        code_verifier: body.code_verifier,
        client_id: body.client_id,
        device_name: body.device_name,
      });
    },
  );
}
