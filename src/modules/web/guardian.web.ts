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
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps, GuardianCtx } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { consentTitle } from '../events/consent-defaults.js';
import { consentTitlesOf } from '../events/consent-documents.service.js';
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

const DETAIL_FIELDS: Field[] = [
  { name: 'name', label: 'Your full name', type: 'text', required: true, autocomplete: 'name' },
  {
    name: 'phone',
    label: 'Your phone number',
    type: 'tel',
    autocomplete: 'tel',
    hint: 'International format, e.g. +447700900123',
  },
  { name: 'relationship', label: 'Relationship to the participant', type: 'text' },
];
/** The portal form as a section: the guardian's details and two emergency-contact slots. */
const PORTAL: Section = {
  key: 'guardian',
  title: 'Guardian',
  intro: '',
  groups: [
    { legend: 'About you', fields: DETAIL_FIELDS },
    {
      ...contactGroup(0),
      legend: 'Emergency contact for the event',
      hint: 'Someone we can call if we cannot reach you.',
    },
    contactGroup(1),
  ],
};

const GUARDIAN_STATUS: Record<string, string> = {
  pending: 'Not started',
  invited: 'Waiting for you',
  accepted: 'Started: answer the permissions, then approve',
  completed: 'Approved',
  declined: 'Declined',
};
const CHILD_STATUS: Record<string, string> = {
  invited: 'Invited',
  in_progress: 'In progress',
  awaiting_guardian: 'Waiting for a parent or guardian',
  complete: 'Complete',
  withdrawn: 'Withdrawn',
  rejected: 'Not accepted',
};

function valuesOf(portal: Portal): Values {
  const guardian = portal.guardian as Json;
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
  extra: { values?: Values; errors?: PageErrorItem[]; notice?: string } = {},
) {
  const errors = extra.errors ?? [];
  const fieldErrors: Record<string, string> = {};
  for (const e of errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  const guardian = portal.guardian as Json;
  const child = portal.child as Json;
  const titles = await consentTitlesOf(
    deps.db,
    (portal.consents as Json[]).map((c) => Number(c.id)),
  );
  return reply.page(status, 'guardian', {
    title: `${errors.length > 0 ? 'Error: ' : ''}Approve ${String(child.display_name)}'s registration`,
    token,
    child,
    childStatus: CHILD_STATUS[String(child.status)] ?? String(child.status),
    guardianStatus: GUARDIAN_STATUS[String(guardian.status)] ?? String(guardian.status),
    completed: guardian.status === 'completed',
    detailFields: DETAIL_FIELDS,
    contactGroups: PORTAL.groups.slice(1),
    permissions: portal.permissions,
    consents: (portal.consents as Json[]).map((c) => ({
      title: titles.get(Number(c.id)) ?? consentTitle(String(c.consent_type)),
      status: 'waiting for your signature',
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
  const { patch, slots } = formToPatch(PORTAL, values, portal.guardian as Json);
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
  const consent = (portal.consents as Json[]).find((c) => String(c.id) === id);
  if (!consent) throw notFound('Consent not found, or already signed');
  return consent;
}

const guardianWhere = (token: string, id: string) => ({
  action: `/guardian/${token}/consents/${id}`,
  back: { href: `/guardian/${token}`, text: 'Back to the approval page' },
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
      return renderConsent(deps, reply, 200, guardianWhere(token, id), consent, { signedInAs: null });
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
      const signatureName = (body.signature_name ?? '').trim();
      const where = guardianWhere(token, id);
      const errors = signatureProblems(body);
      if (errors.length > 0)
        return renderConsent(deps, reply, 422, where, consent, { signatureName, errors, signedInAs: null });
      try {
        await signPortalConsent(ctx, id, { signature_name: signatureName }, request.ip);
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const failure = [{ message: error.message }];
        return renderConsent(deps, reply, error.statusCode, where, consent, {
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
      return renderPortal(deps, reply, 200, token, portal, {
        ...(signed ? { notice: 'Thank you: your signature is recorded.' } : {}),
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
      const body = request.body;
      const values = {
        ...valuesFromBody(PORTAL, body),
        ...Object.fromEntries(
          portal.permissions.map((p) => [
            p.key,
            typeof body[p.key] === 'string' ? (body[p.key] as string) : '',
          ]),
        ),
      };
      const { patch, slots } = portalPatch(values, body, portal);
      try {
        const saved = await patchPortal(ctx, patch);
        return renderPortal(deps, reply, 200, token, saved, { notice: 'Your answers are saved.' });
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const errors =
          error.statusCode === 422
            ? errorsFromProblems(PORTAL, problemsOf(error), slots)
            : [{ message: error.message }];
        return renderPortal(deps, reply, error.statusCode, token, portal, { values, errors });
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
      try {
        const done = await completePortal(ctx);
        return renderPortal(deps, reply, 200, token, done, {
          notice: 'Thank you: you have approved this registration.',
        });
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const portal = await getPortal(ctx);
        const unanswered = /: (.*)$/.exec(error.message)?.[1]?.split(', ') ?? [];
        const errors =
          error.statusCode === 422 && unanswered.length > 0
            ? portal.permissions
                .filter((p) => unanswered.includes(p.key))
                .map((p) => ({ field: fieldId(p.key), message: `Answer: ${p.label}` }))
            : [{ message: error.message }];
        return renderPortal(deps, reply, error.statusCode, token, portal, { errors });
      }
    },
  );
}
