/**
 * The staff participant page and its in-place section edits:
 * - GET  /staff/events/{e}/participants/{pe}: every section the caller may see, scans, travel,
 *   consents, guardians, notes and history (record/page.ts); `participants.read`.
 * - GET  …/sections/{section}/edit: the section's form (only the fields the caller may write,
 *   record/sections.ts), as an htmx fragment or, without JavaScript, a page; `participants.edit`.
 * - POST …/sections/{section}: the form as a record PATCH through the same service as
 *   `PATCH /api/v1/events/{e}/participants/{pe}` (patchParticipant). Saved: the section's view
 *   (htmx) or 303 back to the page; refused: the form again with the field errors (422), the 409
 *   message, or the 403 page. `participants.edit`.
 * - GET  …/sections/{section}: the section's view (htmx "Cancel"); without htmx, a page of it.
 * - GET  …/history[?section=&who=&latest=]: the history region (its filters and its live poll);
 *   204 when nothing is newer than `latest`; `participants.read`.
 * htmx requests are recognised by the `HX-Request` header; everything works without JavaScript.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { detailOf, type ParticipantDetailJson } from '../participants/participants.service.js';
import { problemsOf } from '../participants/record/problems.js';
import { patchParticipant } from '../registration/staff-record/staff-record.service.js';
import {
  errorsFromProblems,
  formToPatch,
  missingRequired,
  type PageErrorItem,
  type Values,
  valuesFromBody,
  valuesFromDetail,
} from '../web/forms.js';
import { fieldId, type Section } from '../web/sections.js';
import {
  airportErrors,
  flightTexts,
  hasAirportFields,
  localTimes,
  TRAVEL_FORM_SCRIPT,
} from '../web/travel-form.js';
import { FormBody, pageResponses } from '../web/web.schemas.js';
import { errorTitle } from './org-pages.js';
import { historyData, pageData, participantPath, readCtx, readDetail, sectionView } from './record/page.js';
import { STAFF_SECTIONS, sectionFor } from './record/sections.js';

const ID = Type.String({ pattern: '^[0-9]{1,9}$' });
export const ParticipantParams = Type.Object(
  { event_id: ID, participant_event_id: ID },
  { additionalProperties: false },
);
const SectionParams = Type.Object(
  { event_id: ID, participant_event_id: ID, section: Type.String({ maxLength: 50 }) },
  { additionalProperties: false },
);
/** The history's filters (record/page.ts historyData): a section key and who acted. */
const HistoryQuery = {
  section: Type.Optional(Type.String({ maxLength: 40 })),
  who: Type.Optional(Type.String({ maxLength: 320 })),
};
const DoneQuery = Type.Object(
  { done: Type.Optional(Type.String({ maxLength: 20 })), ...HistoryQuery },
  { additionalProperties: false },
);
const LiveQuery = Type.Object(
  { ...HistoryQuery, latest: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })) },
  { additionalProperties: false },
);
const filterOf = (q: { section?: string; who?: string }) => ({
  ...(q.section ? { section: q.section } : {}),
  ...(q.who ? { actor: q.who } : {}),
});
export const NOTICES: Record<string, string> = {
  saved: staffText('participant.saved'),
  note: staffText('participant.note_added'),
  withdraw: staffText('participant.the_registration_is_withdrawn'),
  reinstate: staffText('participant.the_registration_is_reinstated_in_progress'),
  reject: staffText('participant.the_registration_is_rejected'),
  guardian_link: staffText('participant.a_new_link_was_emailed_to'),
  invitation_sent: staffText('participant.invitation_sent'),
  invitation_resent: staffText('participant.invitation_sent_again_with_a_new'),
};
const READ = { action: 'participants.read', credential: 'session_cookie' } as const;
const EDIT = { action: 'participants.edit', credential: 'session_cookie' } as const;
const BASE = '/staff/events/:event_id/participants/:participant_event_id';

type Params = { event_id: string; participant_event_id: string; section: string };
const isHtmx = (request: FastifyRequest) => request.headers['hx-request'] === 'true';
const editCtx = (deps: Deps, request: RoutedRequest<'participants.edit'>) => routeCtx(deps, request);

/** The section `key` as the caller may write it; 404 unknown, 403 nothing of it writable. */
function writableSection(deps: Deps, request: RoutedRequest<'participants.edit'>, key: string): Section {
  if (!STAFF_SECTIONS.some((s) => s.key === key))
    throw notFound(staffText('participant.there_is_no_such_section'));
  const section = sectionFor(key, editCtx(deps, request).access.visibility);
  if (!section) throw new ApiError(403, staffText('participant.you_may_not_edit_this_section'));
  return section;
}

interface FormState {
  values: Values;
  errors: PageErrorItem[];
}

async function renderForm(
  deps: Deps,
  request: FastifyRequest & RoutedRequest<'participants.edit'>,
  reply: FastifyReply,
  status: number,
  section: Section,
  state: FormState,
) {
  const { event_id, participant_event_id: pe } = (request as FastifyRequest<{ Params: Params }>).params;
  const ctx = editCtx(deps, request);
  const fieldErrors: Record<string, string> = {};
  for (const e of state.errors) if (e.field && !fieldErrors[e.field]) fieldErrors[e.field] = e.message;
  const data = {
    section,
    path: participantPath(Number(event_id), pe),
    ...state,
    fieldErrors,
    fieldId,
    ...(hasAirportFields(section)
      ? {
          flightTexts: flightTexts('en'),
          scripts: [TRAVEL_FORM_SCRIPT],
          localTimes: await localTimes(section, state.values, 'en'),
        }
      : {}),
  };
  if (isHtmx(request)) return reply.page(status, 'staff/participant-form', data);
  const detail = await readDetail(ctx, pe);
  return reply.page(status, 'staff/participant-edit', {
    ...data,
    title: errorTitle(
      state.errors.length > 0,
      staffText('participant.edit_title', { section: section.title.toLowerCase() }),
    ),
    name: detail.display_name,
    event: ctx.access.event,
  });
}

export function participantPages(web: Api, deps: Deps): void {
  web.get(
    BASE,
    {
      config: READ,
      schema: { hide: true, params: ParticipantParams, querystring: DoneQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = readCtx(deps, request);
      const pe = request.params.participant_event_id;
      const detail = await readDetail(ctx, pe);
      const notice = NOTICES[request.query.done ?? ''];
      return reply.page(200, 'staff/participant', {
        ...(await pageData(ctx, pe, detail, filterOf(request.query))),
        notice,
        scripts: [TRAVEL_FORM_SCRIPT], // the travel edit's type-ahead and flight check, swapped in by htmx
      });
    },
  );

  // The history region alone (its poll and its filters): 204 when the newest entry is still `latest`.
  web.get(
    `${BASE}/history`,
    {
      config: READ,
      schema: {
        hide: true,
        params: ParticipantParams,
        querystring: LiveQuery,
        response: {
          ...pageResponses,
          204: { description: staffText('participant.nothing_newer'), type: 'null' as const },
        },
      },
    },
    async (request, reply) => {
      const ctx = readCtx(deps, request);
      const pe = request.params.participant_event_id;
      await readDetail(ctx, pe); // 404 page for a registration of another event
      const data = await historyData(ctx, pe, filterOf(request.query));
      if (request.query.latest !== undefined && Number(request.query.latest) === data.history.latest)
        return reply.code(204).send(null);
      return reply.page(200, 'staff/participant-history', data);
    },
  );

  web.get(
    `${BASE}/sections/:section`,
    { config: READ, schema: { hide: true, params: SectionParams, response: pageResponses } },
    async (request, reply) => {
      const { event_id, participant_event_id: pe, section: key } = request.params;
      const path = participantPath(Number(event_id), pe);
      const ctx = readCtx(deps, request);
      const detail = await readDetail(ctx, pe);
      const view = sectionView(ctx, key, detail);
      if (!view) throw notFound(staffText('participant.there_is_no_such_section'));
      if (isHtmx(request)) return reply.page(200, 'staff/participant-section', { s: view, path });
      const name = detail.display_name;
      return reply.page(200, 'staff/participant-edit', {
        s: view,
        path,
        name,
        title: view.title,
        event: ctx.access.event,
      });
    },
  );

  web.get(
    `${BASE}/sections/:section/edit`,
    { config: EDIT, schema: { hide: true, params: SectionParams, response: pageResponses } },
    async (request, reply) => {
      const { participant_event_id: pe, section: key } = request.params;
      const section = writableSection(deps, request, key);
      const detail = await readDetail(editCtx(deps, request), pe);
      return renderForm(deps, request, reply, 200, section, {
        values: valuesFromDetail(section, detail),
        errors: [],
      });
    },
  );

  web.post(
    `${BASE}/sections/:section`,
    { config: EDIT, schema: { hide: true, params: SectionParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const { event_id, participant_event_id: pe, section: key } = request.params;
      const section = writableSection(deps, request, key);
      const values = valuesFromBody(section, request.body);
      const missing = [
        ...missingRequired(section, values, 'the'),
        ...(await airportErrors(section, values, 'en')),
      ];
      if (missing.length > 0)
        return renderForm(deps, request, reply, 422, section, { values, errors: missing });
      const ctx = editCtx(deps, request);
      const detail = await readDetail(ctx, pe);
      const { patch, slots } = formToPatch(section, values, detail);
      let saved: ParticipantDetailJson;
      try {
        saved = detailOf(await patchParticipant(ctx, pe, patch));
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        const errors =
          error.statusCode === 422
            ? errorsFromProblems(section, problemsOf(error), slots)
            : [{ message: error.message }];
        return renderForm(deps, request, reply, error.statusCode, section, { values, errors });
      }
      const path = participantPath(Number(event_id), pe);
      if (!isHtmx(request)) return reply.redirect(`${path}?done=saved#sec-${key}`, 303);
      const view = sectionView(ctx, key, saved);
      reply.header('HX-Trigger', 'history-changed'); // the history region fetches the new entry
      return reply.page(200, 'staff/participant-section', {
        s: view,
        path,
        notice: staffText('participant.saved'),
      });
    },
  );
}
