/**
 * The registration form (docs/decisions.md "Registration side"), one page per section, for the signed-in participant:
 * - GET /register/{pe}: overview (status, sections, consents to sign, guardians, submit button);
 * - GET /register/{pe}/{section}: the section's form, filled from the record;
 * - POST /register/{pe}/{section}: the form as a record PATCH through the same service as
 *   `PATCH /api/v1/registrations/{pe}` (patchOwnRecord): saved → 303 to the next section (the
 *   overview after the last); refused → the form again with the person's input and the messages
 *   (422 field errors, 409 no longer editable), never a 500.
 * Each page declares the action `registrations.own` read from the session cookie: the gate decides
 * ownership (404 unknown, 403 someone else's) and sends a visitor without a session to /signin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps, RegistrationCtx } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { consentTitle } from '../events/consent-defaults.js';
import { consentTitlesOf } from '../events/consent-documents.service.js';
import { problemsOf } from '../participants/record/problems.js';
import { getTicket, submitRegistration } from '../registration/lifecycle/registrations.service.js';
import { getOwnRecord, patchOwnRecord } from '../registration/own-record/record.service.js';
import {
  errorsFromProblems,
  formToPatch,
  missingRequired,
  type PageErrorItem,
  type Values,
  valuesFromBody,
  valuesFromDetail,
} from './forms.js';
import { fieldId, SECTIONS, type Section, sectionByKey } from './sections.js';
import { CsrfForm, FormBody as FormBodySchema, pageResponses } from './web.schemas.js';

type Json = Record<string, unknown>;
const PE = Type.String({ pattern: '^[0-9]{1,9}$', description: 'participant_event_id' });
const PeParams = Type.Object({ pe: PE }, { additionalProperties: false });
const DoneQuery = Type.Object(
  {
    done: Type.Optional(
      Type.Union([Type.Literal('submitted'), Type.Literal('signed'), Type.Literal('started')]),
    ),
  },
  { additionalProperties: false },
);
const NOTICES: Record<string, string> = {
  started: 'Your registration has started. Fill in each section, then submit.',
  submitted: 'Your registration is submitted.',
  signed: 'Thank you: your signature is recorded.',
};
const OWN_PAGE = { action: 'registrations.own', credential: 'session_cookie' } as const;
const SectionParams = Type.Object(
  { pe: PE, section: Type.String({ maxLength: 50 }) },
  { additionalProperties: false },
);

export const STATUS_TEXT: Record<string, string> = {
  invited: 'Invited: not started yet',
  in_progress: 'In progress: fill in the sections, then submit',
  awaiting_guardian: 'Submitted: waiting for your parent or guardian',
  complete: 'Complete: you are registered',
  withdrawn: 'Withdrawn',
  rejected: 'Not accepted',
};

/** The participant's own record (ParticipantDetail), read through the API's service. */
export async function ownDetail(ctx: RegistrationCtx): Promise<Json> {
  return (JSON.parse(await getOwnRecord(ctx)) as { participant: Json }).participant;
}

/** The gate's context of a registration page (`{pe}` resolved as the caller's registration). */
export const ownCtx = (deps: Deps, request: RoutedRequest<'registrations.own'>) => routeCtx(deps, request);

function sectionOf(key: string): Section {
  const section = sectionByKey(key);
  if (!section) throw notFound('There is no such part of the registration form');
  return section;
}

function renderSection(
  reply: FastifyReply,
  status: number,
  pe: string,
  section: Section,
  values: Values,
  errors: PageErrorItem[],
) {
  const fieldErrors: Record<string, string> = {};
  for (const e of errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  return reply.page(status, 'section', {
    title: errors.length > 0 ? `Error: ${section.title}` : section.title,
    pe,
    section,
    values,
    errors,
    fieldErrors,
    fieldId,
  });
}

export function registerPages(app: Api, deps: Deps): void {
  app.get(
    '/register/:pe',
    {
      config: OWN_PAGE,
      schema: { hide: true, params: PeParams, querystring: DoneQuery, response: pageResponses },
    },
    async (request, reply) => {
      const { pe } = request.params;
      const done = request.query.done;
      return renderOverview(deps, request, reply, pe, 200, { notice: done ? NOTICES[done] : undefined });
    },
  );

  app.post(
    '/register/:pe/submit',
    {
      config: OWN_PAGE,
      schema: { hide: true, params: PeParams, body: CsrfForm, response: pageResponses },
    },
    async (request, reply) => {
      const { pe } = request.params;
      try {
        await submitRegistration(ownCtx(deps, request));
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        return renderOverview(deps, request, reply, pe, 422, { errors: submitErrors(pe, error.message) });
      }
      return reply.redirect(`/register/${pe}?done=submitted`, 303);
    },
  );

  app.get(
    '/register/:pe/:section',
    { config: OWN_PAGE, schema: { hide: true, params: SectionParams, response: pageResponses } },
    async (request, reply) => {
      const { pe, section: key } = request.params;
      const section = sectionOf(key);
      const detail = await ownDetail(ownCtx(deps, request));
      return renderSection(reply, 200, pe, section, valuesFromDetail(section, detail), []);
    },
  );

  app.post(
    '/register/:pe/:section',
    {
      config: OWN_PAGE,
      schema: { hide: true, params: SectionParams, body: FormBodySchema, response: pageResponses },
    },
    async (request, reply) => {
      const { pe, section: key } = request.params;
      const section = sectionOf(key);
      const values = valuesFromBody(section, request.body);
      const detail = await ownDetail(ownCtx(deps, request));
      const missing = missingRequired(section, values);
      if (missing.length > 0) return renderSection(reply, 422, pe, section, values, missing);
      const { patch, slots } = formToPatch(section, values, detail);
      try {
        await patchOwnRecord(ownCtx(deps, request), patch);
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const errors =
          error.statusCode === 422
            ? errorsFromProblems(section, problemsOf(error), slots)
            : [{ message: error.message }];
        return renderSection(reply, error.statusCode, pe, section, values, errors);
      }
      const next = SECTIONS[SECTIONS.indexOf(section) + 1];
      return reply.redirect(next ? `/register/${pe}/${next.key}` : `/register/${pe}`, 303);
    },
  );
}

/** Submit refusals: "Registration is incomplete: a, b" → one error per missing part, linked to its section. */
function submitErrors(pe: string, message: string): PageErrorItem[] {
  const missing = /^Registration is incomplete: (.*)$/.exec(message)?.[1];
  if (!missing) return [{ message }];
  return missing.split(', ').map((path) => {
    const section = SECTIONS.find((s) =>
      s.groups.some((g) =>
        g.fields.some(
          (f) => f.name === path || f.name.startsWith(`${path}[`) || f.name.startsWith(`${path}.`),
        ),
      ),
    );
    const field = section?.groups
      .flatMap((g) => g.fields)
      .find((f) => f.name === path || f.name.startsWith(path));
    const label = field && field.name === path ? field.label : (section?.title ?? path);
    return {
      message: `${label} is missing`,
      ...(section ? { href: `/register/${pe}/${section.key}${field ? `#${fieldId(field.name)}` : ''}` } : {}),
    };
  });
}

async function renderOverview(
  deps: Deps,
  request: FastifyRequest & RoutedRequest<'registrations.own'>,
  reply: FastifyReply,
  pe: string,
  status: number,
  extra: { notice?: string | undefined; errors?: PageErrorItem[] },
) {
  const ctx = ownCtx(deps, request);
  const detail = await ownDetail(ctx);
  const { ticket } = await getTicket(ctx);
  return reply.page(status, 'overview', {
    ...overviewData(pe, detail, await consentTitlesOf(deps.db, consentIdsOf(detail))),
    eventName: ticket.event.name,
    ...extra,
  });
}

const consentIdsOf = (detail: Json) => ((detail.consents ?? []) as Json[]).map((c) => Number(c.id));

/**
 * What the overview shows; consents and guardians come from the same record. `titles`: the
 * event's consent document titles by consent id (built-in titles otherwise).
 */
export function overviewData(pe: string, detail: Json, titles: Map<number, string> = new Map()) {
  const status = String(detail.status);
  const editable = status !== 'withdrawn' && status !== 'rejected';
  const started = (s: Section) => {
    const values = valuesFromDetail(s, detail);
    return Object.values(values).some((v) => v !== '' && v !== false);
  };
  const consents = ((detail.consents ?? []) as Json[]).map((c) => ({
    id: c.id,
    title: titles.get(Number(c.id)) ?? consentTitle(String(c.consent_type)),
    status:
      c.pending_on === 'guardian' && c.status !== 'signed'
        ? 'waiting for your parent or guardian'
        : String(c.status),
    signed: c.status === 'signed',
    signable:
      c.pending_on === 'participant' &&
      c.status !== 'signed' &&
      c.status !== 'declined' &&
      c.status !== 'expired',
  }));
  const guardians = ((detail.guardians ?? []) as Json[]).map((g) => ({
    name: g.name ?? '',
    email: g.email ?? '',
    status: String(g.status),
  }));
  return {
    title: 'Your registration',
    pe,
    status,
    statusText: STATUS_TEXT[status] ?? status,
    editable,
    sections: SECTIONS.map((s) => ({ key: s.key, title: s.title, started: started(s) })),
    consents,
    guardians,
    canSubmit: status === 'in_progress',
  };
}
