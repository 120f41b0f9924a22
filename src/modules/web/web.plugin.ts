/**
 * The web pages: server-rendered HTML for the participant and guardian steps that
 * need a browser. One encapsulated Fastify scope at the site root (outside /api/v1) with:
 * - @fastify/cookie (signed cookies; the secret is derived from the server key, lib/sealed.ts),
 * - @fastify/formbody (HTML form posts; the API itself stays JSON-only),
 * - @fastify/csrf-protection (a signed secret cookie + a `_csrf` hidden field on every form; checked
 *   before validation on every POST),
 * - @fastify/view with eta templates from `web/templates` and one stylesheet `web/public/muster.css`
 *   (no build step),
 * - a strict Content-Security-Policy (no scripts at all; styles and forms from this origin only),
 * - an error handler that always answers with an HTML page (sign-in required → redirect to /signin).
 * Pages that act for a signed-in person declare `config: { action, credential: 'session_cookie' }`:
 * the API's own gate reads the session cookie (http/authorize.ts; an Authorization header plays no
 * part); the others are `config.public`.
 */
import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RoleRefusal } from '../../access/authorize.js';
import type { Deps } from '../../deps.js';
import { optionalRouteCtx, type RoutedRequest } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, httpStatusOf } from '../../lib/errors.js';
import { STAFF_LANGUAGE, staffText, translator } from '../../lib/i18n/index.js';
import { stringProp } from '../../lib/narrow.js';
import { isStaff } from '../dashboard/home.service.js';
import { listTickets } from '../registration/lifecycle/registrations.service.js';
import { plainPageData } from '../staff-web/field-labels.js';
import { staffPages } from '../staff-web/staff.plugin.js';
import { acceptPages } from './accept.web.js';
import { consentPages } from './consent.web.js';
import { guardianPages } from './guardian.web.js';
import { knownError } from './known-errors.js';
import { frameData, type PageLanguage, pageLanguage, staffFrame, visitorLanguage } from './language.js';
import { languagePages } from './language.web.js';
import { myDataPage } from './my-data.web.js';
import { PAGE_CSP, SCRIPT_PAGE_CSP, WEB_DIR } from './paths.js';
import { registerPages } from './register.web.js';
import { cookieBase, SignInRequired, signedInAs } from './session.js';
import { signinPages } from './signin.web.js';
import { travelLookupRoutes } from './travel-lookups.web.js';
import { pageResponses } from './web.schemas.js';

export { WEB_DIR } from './paths.js';

const STYLESHEET = readFileSync(`${WEB_DIR}public/muster.css`, 'utf8');

export { PAGE_CSP };

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Renders `template` (web/templates) inside the layout and sends it with `status`; `data.page`
     * (a PageLanguage) sets the language, else the visitor's (staff pages: English).
     */
    page(
      status: number,
      template: string,
      data?: Record<string, unknown> & { page?: PageLanguage },
    ): Promise<FastifyReply>;
  }
}

/** Request log lines without query strings (invitation tokens) and with guardian tokens masked. */
const logSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: req.url.split('?')[0]!.replace(/^\/guardian\/[^/]+/, '/guardian/[token]'),
    remoteAddress: req.ip,
  }),
};

export function webRoutes(app: Api, deps: Deps): void {
  app.register(async (web) => {
    web.addHook('onRoute', (route) => {
      route.logSerializers = { ...logSerializers, ...route.logSerializers };
    });
    // Signed with the current key; a cookie signed before a key rotation still verifies.
    await web.register(cookie, { secret: deps.sealer.macs('muster-web-cookies-v1') });
    await web.register(formbody, { bodyLimit: 64 * 1024 });
    await web.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: 'muster_csrf',
      cookieOpts: { ...cookieBase(deps), signed: true },
      // A form's hidden `_csrf` field, or (htmx requests from the staff pages) the X-CSRF-Token header,
      // or (multipart upload forms, whose body is parsed after this check) the action URL's `_csrf`.
      getToken: (req: FastifyRequest) =>
        stringProp(req.body, '_csrf') ??
        stringProp(req.headers, 'x-csrf-token') ??
        stringProp(req.query, '_csrf') ??
        '',
    });
    await web.register(view, {
      engine: { eta: new Eta({ cache: true, autoEscape: true }) },
      templates: `${WEB_DIR}templates`,
      production: true,
    });
    web.decorateReply('page', async function page(this: FastifyReply, status, template, data = {}) {
      const { page: language, ...rest } = data;
      const staff = isStaffPage(this.request, template);
      const frame = staff ? staffFrame() : frameData(this.request, language ?? visitorLanguage(this.request));
      const html = await this.viewAsync(`${template}.eta`, {
        signedInAs: await signedInAs(deps, this.request),
        csrf: this.generateCsrf(),
        errors: [],
        ...frame,
        // Staff pages name fields by their labels, also in the services' messages (field-labels.ts).
        ...(staff ? plainPageData(rest, template) : rest),
      });
      return this.status(status)
        .header('Content-Security-Policy', 'scripts' in rest ? SCRIPT_PAGE_CSP : PAGE_CSP)
        .type('text/html; charset=utf-8')
        .send(html);
    });
    // Every form post proves it came from our page (before its body is validated).
    web.addHook('preValidation', (request, reply, done) => {
      if (request.method !== 'POST') return done();
      web.csrfProtection(request, reply, done);
    });
    web.setErrorHandler((error: FastifyError, request, reply) => pageError(error, request, reply));

    web.get(
      '/assets/muster.css',
      { config: { public: 'none' }, schema: { hide: true } },
      async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLESHEET),
    );
    // No icon: an empty answer instead of a 404 on every page load.
    web.get('/favicon.ico', { config: { public: 'none' }, schema: { hide: true } }, async (_r, reply) =>
      reply.status(204).send(),
    );
    web.get(
      '/',
      {
        config: { action: 'registrations.self', credential: 'session_cookie', optionalSession: true },
        schema: { hide: true, response: pageResponses },
      },
      async (request, reply) => reply.page(200, 'home', await homeData(deps, request)),
    );
    signinPages(web, deps);
    languagePages(web, deps);
    acceptPages(web, deps);
    registerPages(web, deps);
    consentPages(web, deps);
    myDataPage(web, deps);
    guardianPages(web, deps);
    staffPages(web, deps);
    travelLookupRoutes(web, deps); // /api/v1/travel/… lookups: session cookie, not bearer
  });
}

/**
 * The home page's data: the signed-in person's registrations (none when signed out) and whether
 * they are staff (then the page links to the staff dashboard at /staff).
 */
async function homeData(deps: Deps, request: FastifyRequest & RoutedRequest<'registrations.self'>) {
  const ctx = optionalRouteCtx(deps, request);
  const page = await pageLanguage(deps, request, {});
  if (!ctx) return { registrations: [], staff: false, page };
  const [{ tickets }, staff] = await Promise.all([listTickets(ctx), isStaff(ctx)]);
  return {
    registrations: tickets.map((t) => ({ id: t.id, event: t.event.name, status: t.status })),
    staff,
    page,
  };
}

/** Status, title and message of an error page (in the visitor's language); sign-in required → /signin. */
async function pageError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof SignInRequired) {
    return reply.redirect(`/signin?next=${encodeURIComponent(request.url)}`, 302);
  }
  const staff = isStaffPage(request, '');
  const page = staff ? { lang: STAFF_LANGUAGE, offered: [STAFF_LANGUAGE] } : visitorLanguage(request);
  const t = translator(page.lang);
  const code = error.code ?? '';
  let status = httpStatusOf(error);
  let message: string;
  if (code.startsWith('FST_CSRF')) {
    status = 403;
    message = t('errors.csrf');
  } else if (staff && error instanceof RoleRefusal) {
    // A role on the event that does not include this page or action (not "no access to the event").
    message =
      request.method === 'GET' ? staffText('errors.page_refused') : staffText('errors.action_refused');
  } else if (error instanceof ApiError)
    message = staff ? error.message : knownError(page.lang, error.message);
  else if (status === 422) message = t('errors.invalid');
  else if (status >= 500) {
    request.log.error({ err: error }, 'web page error');
    message = t('errors.server');
  } else message = t('errors.generic');
  const title =
    status === 404
      ? t('errors.title_not_found')
      : status >= 500
        ? t('errors.title_server')
        : t('errors.title_problem');
  if (reply.sent) return reply;
  return reply
    .page(status, 'message', { title, message, alert: true, page })
    .catch(() =>
      reply
        .status(status)
        .header('Content-Security-Policy', PAGE_CSP)
        .type('text/plain; charset=utf-8')
        .send(message),
    );
}

/** Staff pages (and their errors) are in STAFF_LANGUAGE (docs/languages.md "Staff pages"). */
function isStaffPage(request: FastifyRequest, template: string): boolean {
  return template.startsWith('staff/') || /^\/staff(\/|\?|$)/.test(request.url);
}
