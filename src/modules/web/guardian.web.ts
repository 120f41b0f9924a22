/**
 * The guardian portal page (docs/decisions.md "Guardian portal"): the link in
 * the guardian invitation email. No sign-in: the token in the path is the credential, exactly as
 * for the portal API, and every action goes through the same services (guardian-portal.service.ts).
 * - GET /guardian/{token} (and GET /guardian/accept?token=…, which redirects to it): the child's
 *   summary, the guardian's details, the permissions (granted / denied), their emergency contacts,
 *   the consents waiting on a guardian and the "I approve" button. 404 unknown, 410 expired.
 * - POST /guardian/{token}: saves (patchPortal) → the page again with "Saved" (200), or the
 *   messages (422) / the registration's state (409).
 * - POST /guardian/{token}/complete: completePortal → the page with the new status; unanswered
 *   permissions → 422 with each one linked.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps, GuardianCtx } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formatDate, type Translate, translator } from '../../lib/i18n/index.js';
import { consentTitle } from '../events/consent-defaults.js';
import { consentDocumentText, consentTitlesOf } from '../events/consent-document-text.js';
import { problemsOf } from '../participants/record/problems.js';
import {
  completePortal,
  getPortal,
  patchPortal,
  signPortalConsent,
} from '../registration/guardian-portal/guardian-portal.service.js';
import { renderConsent, SignForm, signatureProblems } from './consent.web.js';
import {
  errorsFromProblems,
  formToPatch,
  type PageErrorItem,
  type Values,
  valuesFromBody,
  valuesFromDetail,
} from './forms.js';
import { knownError } from './known-errors.js';
import { type PageLanguage, pageLanguage } from './language.js';
import { word } from './register.web.js';
import { contactGroup, type Field, fieldId, type Section } from './sections.js';
import { FormBody, PAGE_RATE_LIMIT, pageResponses } from './web.schemas.js';

type Json = Record<string, unknown>;
type Portal = Awaited<ReturnType<typeof getPortal>>;

const TokenParams = Type.Object(
  { token: Type.String({ maxLength: 300, description: 'The guardian link token' }) },
  { additionalProperties: false },
);
const AcceptQuery = Type.Object(
  { token: Type.Optional(Type.String({ maxLength: 300 })) },
  { additionalProperties: false },
);

/** The portal form as a section in `t`'s language: the guardian's details and two emergency-contact slots. */
function portalSection(t: Translate): Section {
  const details: Field[] = [
    {
      name: 'name',
      label: t('guardian.name_label'),
      type: 'text',
      required: true,
      requiredMessage: t('guardian.name_required'),
      autocomplete: 'name',
    },
    {
      name: 'phone',
      label: t('guardian.phone_label'),
      type: 'tel',
      autocomplete: 'tel',
      hint: t('form.phone_hint'),
    },
    { name: 'relationship', label: t('guardian.relationship_label'), type: 'text' },
  ];
  return {
    key: 'guardian',
    title: 'Guardian',
    intro: '',
    groups: [
      { legend: t('guardian.about_you'), fields: details },
      {
        ...contactGroup(0, t),
        legend: t('guardian.contact_legend'),
        hint: t('guardian.contact_hint'),
      },
      contactGroup(1, t),
    ],
  };
}
const PORTAL = portalSection(translator('en'));

/** The guardian portal's language: the event's offered ones, the guardian's own choice. */
function portalPage(deps: Deps, request: FastifyRequest, token: string): Promise<PageLanguage> {
  // Read or write: the gate has resolved the link either way.
  const link = request.access?.principal;
  if (link?.kind !== 'guardian_link') throw notFound('Guardian link not found');
  return pageLanguage(deps, request, {
    eventId: link.eventId,
    guardianId: link.guardianId,
    switchAction: `/guardian/${token}/language`,
  });
}

function valuesOf(portal: Portal): Values {
  const guardian = portal.guardian;
  const values = valuesFromDetail(PORTAL, guardian);
  for (const p of portal.permissions) values[p.key] = p.value ?? '';
  return values;
}

async function renderPortal(
  deps: Deps,
  reply: FastifyReply,
  status: number,
  token: string,
  portal: Portal,
  page: PageLanguage,
  extra: { values?: Values; errors?: PageErrorItem[]; notice?: string } = {},
) {
  const t = translator(page.lang);
  const section = portalSection(t);
  const errors = extra.errors ?? [];
  const fieldErrors: Record<string, string> = {};
  for (const e of errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  const guardian = portal.guardian;
  const child = portal.child;
  const titles = await consentTitlesOf(
    deps.db,
    portal.consents.map((c) => Number(c.id)),
    page.lang,
  );
  const heading = t('guardian.title', { name: String(child.display_name) });
  return reply.page(status, 'guardian', {
    page,
    title: errors.length > 0 ? t('frame.error_title', { title: heading }) : heading,
    token,
    child,
    dateOfBirth: typeof child.date_of_birth === 'string' ? formatDate(child.date_of_birth, page.lang) : null,
    childStatus: word(t, 'guardian.child', String(child.status)),
    guardianStatus: word(t, 'guardian.status', String(guardian.status)),
    completed: guardian.status === 'completed',
    detailFields: section.groups[0]!.fields,
    contactGroups: section.groups.slice(1),
    permissions: portal.permissions.map((p) => ({ ...p, label: word(t, 'guardian.permission', p.key) })),
    consents: portal.consents.map((c) => ({
      title: titles.get(Number(c.id)) ?? consentTitle(String(c.consent_type), page.lang),
      status: t('consent_status.waiting_you'),
      signHref: `/guardian/${token}/consents/${String(c.id)}`,
    })),
    values: extra.values ?? valuesOf(portal),
    errors,
    fieldErrors,
    fieldId,
    notice: extra.notice,
    signedInAs: null,
  });
}

/** The PATCH body of a portal form post. */
function portalPatch(values: Values, body: FormBody, portal: Portal) {
  const { patch, slots } = formToPatch(PORTAL, values, portal.guardian);
  if (patch.name === null) delete patch.name;
  for (const p of portal.permissions) {
    const answer = body[p.key];
    if (typeof answer === 'string' && answer !== '') patch[p.key] = answer;
  }
  return { patch, slots };
}

const ConsentParams = Type.Object(
  { token: TokenParams.properties.token, id: Type.String({ pattern: '^[0-9]{1,9}$' }) },
  { additionalProperties: false },
);
const DoneQuery = Type.Object(
  { done: Type.Optional(Type.Literal('signed')) },
  { additionalProperties: false },
);

async function pendingConsent(ctx: GuardianCtx, id: string): Promise<Json> {
  const portal = await getPortal(ctx);
  const consent = portal.consents.find((c) => String(c.id) === id);
  if (!consent) throw notFound('Consent not found, or already signed');
  return consent;
}

const guardianWhere = (token: string, id: string, t: Translate) => ({
  action: `/guardian/${token}/consents/${id}`,
  back: { href: `/guardian/${token}`, text: t('guardian.back') },
});

/** The link is the credential (access/guardian-link.ts): unknown → 404 page, expired → 410 page. */
const READ = {
  action: 'guardian_portal.read',
  credential: 'guardian_link',
  rateLimit: PAGE_RATE_LIMIT,
} as const;
const WRITE = { ...READ, action: 'guardian_portal.write' } as const;

export function guardianPages(app: Api, deps: Deps): void {
  app.get(
    '/guardian/:token/consents/:id',
    {
      config: READ,
      schema: { hide: true, params: ConsentParams, response: pageResponses },
    },
    async (request, reply) => {
      const { token, id } = request.params;
      const consent = await pendingConsent(routeCtx(deps, request), id);
      const page = await portalPage(deps, request, token);
      const where = guardianWhere(token, id, translator(page.lang));
      return renderConsent(deps, reply, 200, where, consent, page, { signedInAs: null });
    },
  );

  app.post(
    '/guardian/:token/consents/:id',
    {
      config: WRITE,
      schema: { hide: true, params: ConsentParams, body: SignForm, response: pageResponses },
    },
    async (request, reply) => {
      const { token, id } = request.params;
      const ctx = routeCtx(deps, request);
      const body = request.body;
      const consent = await pendingConsent(ctx, id);
      const page = await portalPage(deps, request, token);
      const t = translator(page.lang);
      const signatureName = (body.signature_name ?? '').trim();
      const where = guardianWhere(token, id, t);
      const errors = signatureProblems(body, t);
      if (errors.length > 0)
        return renderConsent(deps, reply, 422, where, consent, page, {
          signatureName,
          errors,
          signedInAs: null,
        });
      // The signature records the language of the text this guardian was shown.
      const shown = await consentDocumentText(deps.db, Number(id), page.lang);
      try {
        await signPortalConsent(ctx, id, { signature_name: signatureName }, request.ip, shown.language);
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const failure = [{ message: knownError(page.lang, error.message) }];
        return renderConsent(deps, reply, error.statusCode, where, consent, page, {
          signatureName,
          errors: failure,
          signedInAs: null,
        });
      }
      return reply.redirect(`/guardian/${token}?done=signed`, 303);
    },
  );

  app.get(
    '/guardian/accept',
    {
      config: { public: 'none', rateLimit: PAGE_RATE_LIMIT },
      schema: { hide: true, querystring: AcceptQuery, response: pageResponses },
    },
    async (request, reply) =>
      reply.redirect(`/guardian/${encodeURIComponent(request.query.token ?? '-')}`, 302),
  );

  app.get(
    '/guardian/:token',
    {
      config: READ,
      schema: { hide: true, params: TokenParams, querystring: DoneQuery, response: pageResponses },
    },
    async (request, reply) => {
      const { token } = request.params;
      const signed = request.query.done === 'signed';
      const portal = await getPortal(routeCtx(deps, request));
      const page = await portalPage(deps, request, token);
      return renderPortal(deps, reply, 200, token, portal, page, {
        ...(signed ? { notice: translator(page.lang)('guardian.notice_signed') } : {}),
      });
    },
  );

  app.post(
    '/guardian/:token',
    {
      config: WRITE,
      schema: { hide: true, params: TokenParams, body: FormBody, response: pageResponses },
    },
    async (request, reply) => {
      const { token } = request.params;
      const ctx = routeCtx(deps, request);
      const portal = await getPortal(ctx);
      const page = await portalPage(deps, request, token);
      const section = portalSection(translator(page.lang));
      const body = request.body;
      const values = {
        ...valuesFromBody(section, body),
        ...Object.fromEntries(
          portal.permissions.map((p) => {
            const answer = body[p.key];
            return [p.key, typeof answer === 'string' ? answer : ''];
          }),
        ),
      };
      const { patch, slots } = portalPatch(values, body, portal);
      try {
        const saved = await patchPortal(ctx, patch);
        return renderPortal(deps, reply, 200, token, saved, page, {
          notice: translator(page.lang)('guardian.notice_saved'),
        });
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const errors =
          error.statusCode === 422
            ? errorsFromProblems(section, problemsOf(error), slots, page.lang)
            : [{ message: knownError(page.lang, error.message) }];
        return renderPortal(deps, reply, error.statusCode, token, portal, page, { values, errors });
      }
    },
  );

  app.post(
    '/guardian/:token/complete',
    {
      config: WRITE,
      schema: { hide: true, params: TokenParams, body: FormBody, response: pageResponses },
    },
    async (request, reply) => {
      const { token } = request.params;
      const ctx = routeCtx(deps, request);
      const page = await portalPage(deps, request, token);
      const t = translator(page.lang);
      try {
        const done = await completePortal(ctx);
        return renderPortal(deps, reply, 200, token, done, page, { notice: t('guardian.notice_approved') });
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const portal = await getPortal(ctx);
        const unanswered = /: (.*)$/.exec(error.message)?.[1]?.split(', ') ?? [];
        const errors =
          error.statusCode === 422 && unanswered.length > 0
            ? portal.permissions
                .filter((p) => unanswered.includes(p.key))
                .map((p) => ({
                  field: fieldId(p.key),
                  message: t('guardian.answer', { label: word(t, 'guardian.permission', p.key) }),
                }))
            : [{ message: knownError(page.lang, error.message) }];
        return renderPortal(deps, reply, error.statusCode, token, portal, page, { errors });
      }
    },
  );
}
