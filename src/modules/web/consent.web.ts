/**
 * Typed signature of a consent (docs/decisions.md "Consents", embedded signing): the participant reads the consent
 * and signs by typing their name; time and IP are recorded by the same service as
 * `POST /api/v1/consents/{id}/sign` (signOwnConsent), which also re-runs the completion check.
 * - GET /register/{pe}/consents/{id}: the text and the form (or "signed on …").
 * - POST: a name and the "I agree" box are required (422, linked); the service's refusals (already
 *   signed, a guardian's consent, registration closed) re-render with the message; signed → 303 to
 *   the overview.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps, RegistrationCtx } from '../../deps.js';
import type { Api } from '../../http/typed.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatWhen, languageInfo, type Translate, translator } from '../../lib/i18n/index.js';
import { consentDocumentText } from '../events/consent-document-text.js';
import { signOwnConsent } from '../registration/lifecycle/registrations.service.js';
import { eventBrand } from './brand.js';
import type { PageErrorItem } from './forms.js';
import { knownError } from './known-errors.js';
import type { PageLanguage } from './language.js';
import { ownCtx, ownDetail, ownPage } from './register.web.js';
import { pageResponses } from './web.schemas.js';

type Json = Record<string, unknown>;
/** `{pe}` is the caller's registration (the gate decides); `{id}` must be one of its consents. */
const OWN_PAGE = { action: 'registrations.own', credential: 'session_cookie' } as const;
const ConsentParams = Type.Object(
  { pe: Type.String({ pattern: '^[0-9]{1,9}$' }), id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);
export const SignForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 200 })),
    signature_name: Type.Optional(Type.String({ maxLength: 200 })),
    agree: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
);

/**
 * The consent page; `where` says where the form posts and where "back" goes. The text is the
 * event's consent document (the version signed, once signed) and the event's logo heads the page.
 */
export async function renderConsent(
  deps: Deps,
  reply: FastifyReply,
  status: number,
  where: { action: string; back: { href: string; text: string } },
  consent: Json,
  page: PageLanguage,
  extra: { signatureName?: string; errors?: PageErrorItem[]; signedInAs?: null } = {},
) {
  const errors = extra.errors ?? [];
  const fieldErrors: Record<string, string> = {};
  for (const e of errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  const doc = await consentDocumentText(deps.db, Number(consent.id), page.lang);
  const t = translator(page.lang);
  const title = doc.title;
  return reply.page(status, 'consent', {
    page,
    title: errors.length > 0 ? t('frame.error_title', { title }) : title,
    ...where,
    ...eventBrand(doc.event.name, doc.event.logo_url, doc.event.banner_url, t),
    consentTitle: title,
    consentText: doc.paragraphs,
    documentLang: doc.language === page.lang ? null : doc.language,
    fallbackNote: doc.fallback
      ? t('frame.fallback_note', { language: languageInfo(doc.language).name })
      : null,
    signed: consent.status === 'signed',
    signedAt:
      typeof consent.signed_at === 'string'
        ? formatWhen(consent.signed_at, page.lang, doc.event.timezone)
        : consent.signed_at,
    signatureName: extra.signatureName ?? '',
    errors,
    fieldErrors,
    ...(extra.signedInAs === null ? { signedInAs: null } : {}),
  });
}

/** Page-side checks before a typed signature: a name and the "I agree" box. */
export function signatureProblems(
  body: { signature_name?: string; agree?: string },
  t: Translate,
): PageErrorItem[] {
  const errors: PageErrorItem[] = [];
  if (!(body.signature_name ?? '').trim())
    errors.push({ field: 'f-signature_name', message: t('consent.name_missing') });
  if (body.agree !== 'true') errors.push({ field: 'f-agree', message: t('consent.agree_missing') });
  return errors;
}

const ownWhere = (pe: string, id: string, t: Translate) => ({
  action: `/register/${pe}/consents/${id}`,
  back: { href: `/register/${pe}`, text: t('overview.back') },
});

async function consentOf(ctx: RegistrationCtx, id: string) {
  const detail = await ownDetail(ctx);
  const consent = detail.consents.find((c) => String(c.id) === id);
  if (!consent) throw notFound('Consent not found');
  return consent;
}

export function consentPages(app: Api, deps: Deps): void {
  app.get(
    '/register/:pe/consents/:id',
    { config: OWN_PAGE, schema: { hide: true, params: ConsentParams, response: pageResponses } },
    async (request, reply) => {
      const { pe, id } = request.params;
      const page = await ownPage(deps, request);
      const consent = await consentOf(ownCtx(deps, request), id);
      return renderConsent(deps, reply, 200, ownWhere(pe, id, translator(page.lang)), consent, page);
    },
  );

  app.post(
    '/register/:pe/consents/:id',
    {
      config: OWN_PAGE,
      schema: { hide: true, params: ConsentParams, body: SignForm, response: pageResponses },
    },
    async (request, reply) => {
      const { pe, id } = request.params;
      const body = request.body;
      const ctx = ownCtx(deps, request);
      const consent = await consentOf(ctx, id);
      const page = await ownPage(deps, request);
      const t = translator(page.lang);
      const where = ownWhere(pe, id, t);
      const signatureName = (body.signature_name ?? '').trim();
      const errors = signatureProblems(body, t);
      if (errors.length > 0)
        return renderConsent(deps, reply, 422, where, consent, page, { signatureName, errors });
      // The signature records the language of the text this reader was shown.
      const shown = await consentDocumentText(deps.db, Number(id), page.lang);
      try {
        await signOwnConsent(ctx, id, { signatureName, ip: request.ip, language: shown.language });
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        return renderConsent(deps, reply, 422, where, consent, page, {
          signatureName,
          errors: [{ message: knownError(page.lang, error.message) }],
        });
      }
      return reply.redirect(`/register/${pe}?done=signed`, 303);
    },
  );
}
