/**
 * The language of a participant or guardian page (docs/languages.md "Which language"): the
 * person's remembered choice (their account, or their guardian row), then the `muster_lang` cookie,
 * then `Accept-Language`, each among the languages the event offers (every shipped language on
 * pages without an event), then the event's default. The page frame gets the language, its
 * direction, a translator for the template (`it.t`, and `it.th` with HTML-escaped arguments for
 * messages that carry markup) and the language switch (a form of buttons; no scripts).
 * Staff pages stay English (docs/languages.md "Staff pages").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUserPrincipal } from '../../access/principal.js';
import type { Deps } from '../../deps.js';
import {
  chooseLanguage,
  htmlTranslator,
  jsonForHtml,
  languageInfo,
  STAFF_LANGUAGE,
  staffScriptStrings,
  type Translate,
  translator,
  type Vars,
} from '../../lib/i18n/index.js';
import {
  ALL_LANGUAGES,
  type EventLanguages,
  eventLanguages,
  guardianLanguage,
  userLanguage,
} from '../languages/languages.service.js';
import { cookieBase } from './session.js';

export const LANG_COOKIE = 'muster_lang';
const ONE_YEAR_S = 365 * 24 * 3600;

/** What a page decided about its language; spread into the page's data. */
export interface PageLanguage {
  lang: string;
  offered: readonly string[];
  /** Where the language switch posts (`/language`, or the guardian portal's own route). */
  switchAction?: string;
  /** Where the switch returns to (default: this page's URL; a form post's page without `/submit`). */
  switchNext?: string;
}

/** The cookie's language, if any (unsigned: it only picks among offered languages). */
export function cookieLanguage(request: FastifyRequest): string | null {
  const value = request.cookies?.[LANG_COOKIE];
  return value && /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(value) ? value : null;
}

export function setLanguageCookie(deps: Deps, reply: FastifyReply, lang: string): void {
  reply.setCookie(LANG_COOKIE, lang, { ...cookieBase(deps), maxAge: ONE_YEAR_S });
}

/** Pages without an event or person (home, sign-in, error pages): cookie, then Accept-Language. */
export function visitorLanguage(
  request: FastifyRequest,
  offered: EventLanguages = ALL_LANGUAGES,
): PageLanguage {
  const lang = chooseLanguage({
    offered: offered.languages,
    fallback: offered.default_language,
    remembered: [cookieLanguage(request)],
    acceptLanguage: request.headers['accept-language'],
  });
  return { lang, offered: offered.languages };
}

/**
 * A page of event `eventId` for the signed-in participant (their account's choice) or a guardian
 * (`guardianId`: their row's choice); `eventId` null = every shipped language.
 */
export async function pageLanguage(
  deps: Deps,
  request: FastifyRequest,
  of: { eventId?: number | null; guardianId?: number; switchAction?: string },
): Promise<PageLanguage> {
  const offered = of.eventId ? await eventLanguages(deps.db, of.eventId) : ALL_LANGUAGES;
  const principal = request.access?.principal;
  const remembered =
    of.guardianId !== undefined
      ? await guardianLanguage(deps.db, of.guardianId)
      : principal && isUserPrincipal(principal)
        ? await userLanguage(deps.db, principal.user.id)
        : null;
  const lang = chooseLanguage({
    offered: offered.languages,
    fallback: offered.default_language,
    remembered: [remembered, cookieLanguage(request)],
    acceptLanguage: request.headers['accept-language'],
  });
  return { lang, offered: offered.languages, ...(of.switchAction ? { switchAction: of.switchAction } : {}) };
}

/** The frame's data for a page in `page.lang`: lang, dir, translators and the language switch. */
export function frameData(request: FastifyRequest, page: PageLanguage) {
  const t = translator(page.lang);
  const info = languageInfo(page.lang);
  const next =
    page.switchNext ??
    (request.method === 'GET' ? request.url : request.url.replace(/\/(submit|complete|continue)$/, ''));
  return {
    lang: info.code,
    dir: info.dir,
    t,
    th: htmlTranslator(t),
    languageSwitch:
      page.offered.length > 1
        ? {
            action: page.switchAction ?? '/language',
            next,
            options: page.offered.map((code) => ({
              code,
              name: languageInfo(code).name,
              current: code === info.code,
            })),
          }
        : null,
  };
}

/** The frame of staff pages, in STAFF_LANGUAGE (their strings are the catalog's `staff.*`). */
export function staffFrame() {
  const t = translator(STAFF_LANGUAGE);
  const { dir } = languageInfo(STAFF_LANGUAGE);
  // The staff layout renders the words of the page's scripts (staff.js's, and its `scriptStrings` groups).
  const scriptStrings = (groups: readonly string[]) => jsonForHtml(staffScriptStrings(groups));
  return { lang: STAFF_LANGUAGE, dir, t, th: htmlTranslator(t), languageSwitch: null, scriptStrings };
}

export type { Translate, Vars };
