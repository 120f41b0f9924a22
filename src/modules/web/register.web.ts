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
import { type Translate, translator } from '../../lib/i18n/index.js';
import { consentTitle } from '../events/consent-defaults.js';
import { consentTitlesOf } from '../events/consent-document-text.js';
import { detailOf, type ParticipantDetailJson } from '../participants/participants.service.js';
import { problemsOf } from '../participants/record/problems.js';
import { getTicket, submitRegistration } from '../registration/lifecycle/registrations.service.js';
import { getOwnRecord, patchOwnRecord } from '../registration/own-record/record.service.js';
import { publishedRoom } from '../rooming/published.js';
import {
  errorsFromProblems,
  formToPatch,
  missingRequired,
  type PageErrorItem,
  type Values,
  valuesFromBody,
  valuesFromDetail,
} from './forms.js';
import { knownError } from './known-errors.js';
import { type PageLanguage, pageLanguage } from './language.js';
import { fieldId, SECTIONS, type Section, sectionByKey, sectionsIn } from './sections.js';
import {
  airportErrors,
  flightTexts,
  hasAirportFields,
  localTimes,
  TRAVEL_FORM_SCRIPT,
} from './travel-form.js';
import { CsrfForm, FormBody as FormBodySchema, pageResponses } from './web.schemas.js';

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
/** `?done=` → the notice's catalog key. */
const NOTICES: Record<string, string> = {
  started: 'overview.notice_started',
  submitted: 'overview.notice_submitted',
  signed: 'overview.notice_signed',
};
const OWN_PAGE = { action: 'registrations.own', credential: 'session_cookie' } as const;
const SectionParams = Type.Object(
  { pe: PE, section: Type.String({ maxLength: 50 }) },
  { additionalProperties: false },
);

/** The statuses in English, as the participant reads them (the staff pages show these too). */
export const STATUS_TEXT: Record<string, string> = Object.fromEntries(
  ['invited', 'in_progress', 'awaiting_guardian', 'complete', 'withdrawn', 'rejected'].map((s) => [
    s,
    statusText(translator('en'), s),
  ]),
);

/** A registration status as the participant reads it (`registration_status.*`). */
export function statusText(t: Translate, status: string): string {
  const key = `registration_status.${status}`;
  const text = t(key);
  return text === key ? status : text;
}

/** The participant's own record (ParticipantDetail), read through the API's service. */
export async function ownDetail(ctx: RegistrationCtx): Promise<ParticipantDetailJson> {
  return detailOf(await getOwnRecord(ctx));
}

/** The gate's context of a registration page (`{pe}` resolved as the caller's registration). */
export const ownCtx = (deps: Deps, request: RoutedRequest<'registrations.own'>) => routeCtx(deps, request);

function sectionOf(key: string, lang: string): Section {
  const section = sectionByKey(key, lang);
  if (!section) throw notFound('There is no such part of the registration form');
  return section;
}

/** The language of a registration page: the event's offered ones, the person's choice (web/language.ts). */
export const ownPage = (deps: Deps, request: FastifyRequest & RoutedRequest<'registrations.own'>) =>
  pageLanguage(deps, request, { eventId: ownCtx(deps, request).access.registration.eventId });

async function renderSection(
  reply: FastifyReply,
  status: number,
  pe: string,
  section: Section,
  values: Values,
  errors: PageErrorItem[],
  page: PageLanguage,
) {
  const fieldErrors: Record<string, string> = {};
  for (const e of errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  const t = translator(page.lang);
  return reply.page(status, 'section', {
    page,
    title: errors.length > 0 ? t('frame.error_title', { title: section.title }) : section.title,
    pe,
    section,
    values,
    errors,
    fieldErrors,
    fieldId,
    ...(hasAirportFields(section)
      ? {
          scripts: [TRAVEL_FORM_SCRIPT],
          flightTexts: flightTexts(page.lang),
          localTimes: await localTimes(section, values, page.lang),
        }
      : {}),
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
      const page = await ownPage(deps, request);
      const notice = done ? translator(page.lang)(NOTICES[done]!) : undefined;
      return renderOverview(deps, request, reply, pe, 200, { notice, page });
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
        const page = { ...(await ownPage(deps, request)), switchNext: `/register/${pe}` };
        return renderOverview(deps, request, reply, pe, 422, {
          errors: submitErrors(pe, error.message, page.lang),
          page,
        });
      }
      return reply.redirect(`/register/${pe}?done=submitted`, 303);
    },
  );

  app.get(
    '/register/:pe/:section',
    { config: OWN_PAGE, schema: { hide: true, params: SectionParams, response: pageResponses } },
    async (request, reply) => {
      const { pe, section: key } = request.params;
      const page = await ownPage(deps, request);
      const section = sectionOf(key, page.lang);
      const detail = await ownDetail(ownCtx(deps, request));
      return renderSection(reply, 200, pe, section, valuesFromDetail(section, detail), [], page);
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
      const page = await ownPage(deps, request);
      const section = sectionOf(key, page.lang);
      const values = valuesFromBody(section, request.body);
      const detail = await ownDetail(ownCtx(deps, request));
      const missing = [
        ...missingRequired(section, values),
        ...(await airportErrors(section, values, page.lang)),
      ];
      if (missing.length > 0) return renderSection(reply, 422, pe, section, values, missing, page);
      const { patch, slots } = formToPatch(section, values, detail);
      try {
        await patchOwnRecord(ownCtx(deps, request), patch);
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const errors =
          error.statusCode === 422
            ? errorsFromProblems(section, problemsOf(error), slots, page.lang)
            : [{ message: knownError(page.lang, error.message) }];
        return renderSection(reply, error.statusCode, pe, section, values, errors, page);
      }
      const next = SECTIONS[SECTIONS.findIndex((s) => s.key === section.key) + 1];
      return reply.redirect(next ? `/register/${pe}/${next.key}` : `/register/${pe}`, 303);
    },
  );
}

/** Submit refusals: "Registration is incomplete: a, b" → one error per missing part, linked to its section. */
function submitErrors(pe: string, message: string, lang: string): PageErrorItem[] {
  const missing = /^Registration is incomplete: (.*)$/.exec(message)?.[1];
  if (!missing) return [{ message: knownError(lang, message) }];
  const t = translator(lang);
  return missing.split(', ').map((path) => {
    const section = sectionsIn(lang).find((s) =>
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
      message: t('overview.missing', { label }),
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
  extra: { notice?: string | undefined; errors?: PageErrorItem[]; page: PageLanguage },
) {
  const ctx = ownCtx(deps, request);
  const detail = await ownDetail(ctx);
  const { ticket } = await getTicket(ctx);
  const lang = extra.page.lang;
  const { id, eventId } = ctx.access.registration;
  return reply.page(status, 'overview', {
    ...overviewData(pe, detail, await consentTitlesOf(deps.db, consentIdsOf(detail), lang), lang),
    eventName: ticket.event.name,
    room: await publishedRoom(deps.db, eventId, id),
    ...extra,
  });
}

const consentIdsOf = (detail: ParticipantDetailJson) => detail.consents.map((c) => c.id);

/**
 * What the overview shows; consents and guardians come from the same record. `titles`: the
 * event's consent document titles by consent id (built-in titles otherwise).
 */
export function overviewData(
  pe: string,
  detail: ParticipantDetailJson,
  titles: Map<number, string> = new Map(),
  lang = 'en',
) {
  const t = translator(lang);
  const status = detail.status;
  const editable = status !== 'withdrawn' && status !== 'rejected';
  const started = (s: Section) => {
    const values = valuesFromDetail(s, detail);
    return Object.values(values).some((v) => v !== '' && v !== false);
  };
  const consents = detail.consents.map((c) => ({
    id: c.id,
    title: titles.get(c.id) ?? consentTitle(c.consent_type, lang),
    status:
      c.pending_on === 'guardian' && c.status !== 'signed'
        ? t('consent_status.waiting_guardian')
        : word(t, 'consent_status', c.status),
    signed: c.status === 'signed',
    signable:
      c.pending_on === 'participant' &&
      c.status !== 'signed' &&
      c.status !== 'declined' &&
      c.status !== 'expired',
  }));
  const guardians = detail.guardians.map((g) => ({
    name: g.name ?? '',
    email: g.email ?? '',
    status: word(t, 'guardian_status_short', g.status),
  }));
  return {
    title: t('overview.title'),
    pe,
    status,
    statusText: statusText(t, status),
    editable,
    sections: sectionsIn(lang).map((s) => ({ key: s.key, title: s.title, started: started(s) })),
    consents,
    guardians,
    canSubmit: status === 'in_progress',
  };
}

/** `prefix.value` from the catalog, or the value itself when the catalog has no such word. */
export function word(t: Translate, prefix: string, value: string): string {
  const key = `${prefix}.${value}`;
  const text = t(key);
  return text === key ? value : text;
}
