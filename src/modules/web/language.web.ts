/**
 * The language switch (docs/languages.md "Which language"): every participant and guardian page
 * has a form of buttons, one per offered language, posting here.
 * - POST /language {lang, next}: remembers the choice in the `muster_lang` cookie (a year) and, for
 *   a signed-in person, on their account; then 303 back to `next` (a local path).
 * - POST /guardian/{token}/language {lang, next}: the guardian portal's switch; the link is the
 *   credential, and the choice is kept on the guardian's row (emails to them follow it).
 * A language Muster does not ship is ignored (back to the page, nothing stored).
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { optionalRouteCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { isShipped } from '../../lib/i18n/index.js';
import { setGuardianLanguage, setUserLanguage } from '../languages/languages.service.js';
import { setLanguageCookie } from './language.js';
import { safeNext } from './session.js';
import { PAGE_RATE_LIMIT, pageResponses } from './web.schemas.js';

const LanguageForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 200 })),
    lang: Type.Optional(Type.String({ maxLength: 20 })),
    next: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const TokenParams = Type.Object(
  { token: Type.String({ maxLength: 300, description: 'The guardian link token' }) },
  { additionalProperties: false },
);

export function languagePages(app: Api, deps: Deps): void {
  app.post(
    '/language',
    {
      config: { action: 'registrations.self', credential: 'session_cookie', optionalSession: true },
      schema: { hide: true, body: LanguageForm, response: pageResponses },
    },
    async (request, reply) => {
      const lang = request.body.lang ?? '';
      if (isShipped(lang)) {
        setLanguageCookie(deps, reply, lang);
        const ctx = optionalRouteCtx(deps, request);
        const principal = ctx?.access.principal;
        if (principal && 'user' in principal) await setUserLanguage(deps.db, principal.user.id, lang);
      }
      return reply.redirect(safeNext(request.body.next), 303);
    },
  );

  app.post(
    '/guardian/:token/language',
    {
      config: { action: 'guardian_portal.write', credential: 'guardian_link', rateLimit: PAGE_RATE_LIMIT },
      schema: { hide: true, params: TokenParams, body: LanguageForm, response: pageResponses },
    },
    async (request, reply) => {
      const lang = request.body.lang ?? '';
      const principal = request.access?.principal;
      if (isShipped(lang)) {
        setLanguageCookie(deps, reply, lang);
        if (principal?.kind === 'guardian_link')
          await setGuardianLanguage(deps.db, principal.guardianId, lang);
      }
      const portal = `/guardian/${request.params.token}`;
      const next = safeNext(request.body.next);
      return reply.redirect(next.startsWith(portal) ? next : portal, 303);
    },
  );
}
