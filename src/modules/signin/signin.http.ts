/**
 * What the sign-in routes share: per-IP rate limits, a request-log serializer that drops query
 * strings (they carry upstream codes and states), the form-body parser, the page-or-JSON answer
 * (`Accept: text/html` gets an HTML page, everyone else `{error}`) and the pages' error handler.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { ApiError, badRequest, httpStatusOf } from '../../lib/errors.js';
import { translator } from '../../lib/i18n/index.js';
import {
  type AuthorizeCheck,
  type AuthorizeParams,
  CODE_TTL_MINUTES,
  checkAuthorizeRequest,
} from './authorize.service.js';
import { cspSourceFor } from './clients.service.js';
import { createUpstream, type Upstream } from './oidc.service.js';
import {
  authorizeUrl,
  type ClientRequest,
  codePage,
  messagePage,
  type Page,
  signinLanguage,
} from './signin.pages.js';

export const tags = ['sign-in'];
const TEN_MINUTES = 10 * 60 * 1000;

/**
 * Per-IP limits (quality.md: rate limits on sign-in and code requests), generous enough for a venue
 * where many staff share one address; the per-address limits on code requests live in the database
 * (CODE_REQUEST_LIMITS: 5 per 10 minutes, 20 per day).
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
export const CODE_REQUEST_MIN_MS = 300;

/** The request log line without the query string. */
export const logSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: req.url.split('?')[0],
    host: req.host,
    remoteAddress: req.ip,
  }),
};

export function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/i.test(request.headers.accept ?? '');
}

export function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply
    .status(status)
    .header('Content-Security-Policy', page.csp)
    .type('text/html; charset=utf-8')
    .send(page.html);
}

/** An unsuccessful outcome: an HTML page for browsers, `{error}` for everyone else. */
export function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  page: Page,
): FastifyReply {
  if (!wantsHtml(request)) return reply.status(status).send({ error: message });
  return sendPage(reply, status, page);
}

export function parseForm(
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

/** Answers browsers with an HTML page; everyone else gets the API's one error handler ({error}). */
export function setPageErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Non-browsers: the API's one error handler ({error}, same status rules).
    if (!wantsHtml(request)) throw error;
    // Same status rules as http/errors.ts: validation 422, body too large 413, unreadable body 400.
    const status = httpStatusOf(error);
    if (status >= 500 && !(error instanceof ApiError))
      request.log.error({ err: error }, 'sign-in page error');
    const lang = signinLanguage(request.headers);
    const t = translator(lang);
    const title = status === 429 ? t('signin.wait_title') : t('signin.problem_title');
    const minutes = Math.max(1, Math.ceil(Number(reply.getHeader('retry-after') ?? 60) / 60));
    // An English reader gets the service's own refusal (it can say more); others the catalog's.
    const message =
      error instanceof ApiError && (lang === 'en' || status !== 429)
        ? error.message
        : status === 429
          ? t('signin.too_many', { minutes })
          : status >= 500
            ? t('signin.server')
            : t('signin.bad_request');
    return sendPage(reply, status, messagePage({ title, message, lang }));
  });
}

/** What the page routes share: their base path and the optional upstream provider. */
export interface PagesEnv {
  base: string;
  upstream: Upstream | null;
  /** The upstream button's label and CSP source; null when not configured or unreachable. */
  upstreamFor(): Promise<{ label: string; formAction: string } | null>;
  /** Re-validates the client request carried by a form; a tampered one is a plain error page. */
  clientRequestOf(params: AuthorizeParams): Promise<Extract<AuthorizeCheck, { ok: true }>>;
}

export function pagesEnv(app: FastifyInstance, deps: Deps): PagesEnv {
  const base = `${app.prefix}/oauth`;
  const upstream: Upstream | null = deps.config.oidc
    ? createUpstream(deps.config.oidc, `${deps.config.baseUrl}${base}/oidc/callback`)
    : null;
  async function upstreamFor(): Promise<{ label: string; formAction: string } | null> {
    if (!upstream) return null;
    const source = await upstream.formActionSource();
    if (!source) {
      deps.log.warn('the upstream OpenID Connect provider is unreachable; its button is hidden');
      return null;
    }
    return { label: upstream.label, formAction: source };
  }

  async function clientRequestOf(params: AuthorizeParams) {
    const check = await checkAuthorizeRequest(deps.db, params);
    if (!check.ok) throw new ApiError(400, check.message);
    return check;
  }
  return { base, upstream, upstreamFor, clientRequestOf };
}

export function codePageFor(opts: {
  base: string;
  requestId: string;
  email: string;
  request: ClientRequest;
  error?: string;
  lang?: string;
}): Page {
  return codePage({
    lang: opts.lang ?? 'en',
    base: opts.base,
    requestId: opts.requestId,
    email: opts.email,
    expiresMinutes: CODE_TTL_MINUTES,
    error: opts.error,
    startOver: authorizeUrl(opts.base, opts.request),
    redirectSource: cspSourceFor(opts.request.redirect_uri),
  });
}
