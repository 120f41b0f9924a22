/**
 * The participant page's buttons, each a plain form (no inline script):
 * - GET  …/participants/{pe}/confirm/{withdraw|reinstate|reject}: the confirmation page, with an
 *   optional reason; `registrations.manage` (event admins, series roles, global admins).
 * - POST …/participants/{pe}/status/{withdraw|reinstate|reject}: the staff lifecycle service
 *   (applyStaffAction, the same as `POST /api/v1/events/{e}/participants/{pe}/{action}`) → 303 to
 *   the page with a notice; a refused move (422) → the confirmation page with the message.
 * - POST …/participants/{pe}/notes: createNote (the same as `POST …/notes`) → 303 to the page's
 *   notes; a blank note (422) → the page again with the error. `notes.write`.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { createNote } from '../notes/notes.service.js';
import { applyStaffAction, type StaffAction } from '../registration/lifecycle/staff.service.js';
import { pageResponses } from '../web/web.schemas.js';
import { errorTitle } from './org-pages.js';
import { ParticipantParams } from './participant.web.js';
import { pageData, participantPath, readDetail } from './record/page.js';

const ID = Type.String({ pattern: '^[0-9]{1,9}$' });
const Action = Type.Union([Type.Literal('withdraw'), Type.Literal('reinstate'), Type.Literal('reject')]);
const ActionParams = Type.Object(
  { event_id: ID, participant_event_id: ID, action: Action },
  { additionalProperties: false },
);
const ReasonForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 200 })),
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
const NoteForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 200 })),
    content: Type.String({ maxLength: 10_000 }),
    note_type: Type.Optional(
      Type.Union([Type.Literal('ops'), Type.Literal('safeguarding'), Type.Literal('logistical')]),
    ),
    sensitivity: Type.Optional(Type.Union([Type.Literal('normal'), Type.Literal('restricted')])),
  },
  { additionalProperties: false },
);
const MANAGE = { action: 'registrations.manage', credential: 'session_cookie' } as const;
const BASE = '/staff/events/:event_id/participants/:participant_event_id';

const EXPLAIN: Record<StaffAction, string> = {
  withdraw: staffText('participant_actions.the_registration_moves_to_withdrawn_the'),
  reinstate: staffText('participant_actions.the_registration_moves_back_to_in'),
  reject: staffText('participant_actions.the_registration_moves_to_rejected_the'),
};

async function renderConfirm(
  deps: Deps,
  request: FastifyRequest & RoutedRequest<'registrations.manage'>,
  reply: FastifyReply,
  status: number,
  extra: { errors?: { message: string }[]; reason?: string } = {},
) {
  const { participant_event_id: pe, action } = (
    request as FastifyRequest<{ Params: Static<typeof ActionParams> }>
  ).params;
  const ctx = routeCtx(deps, request);
  // The name comes through the participants serializer, in the caller's visibility.
  const detail = await readDetail(ctx, pe);
  const name = detail.display_name;
  return reply.page(status, 'staff/participant-confirm', {
    title: errorTitle(extra.errors, staffText('participant_actions.confirm_title', { action, name })),
    event: ctx.access.event,
    path: participantPath(ctx.access.event.id, pe),
    name,
    action,
    explain: EXPLAIN[action],
    ...extra,
  });
}

export function participantActionPages(web: Api, deps: Deps): void {
  web.get(
    `${BASE}/confirm/:action`,
    { config: MANAGE, schema: { hide: true, params: ActionParams, response: pageResponses } },
    async (request, reply) => renderConfirm(deps, request, reply, 200),
  );

  web.post(
    `${BASE}/status/:action`,
    {
      config: MANAGE,
      schema: { hide: true, params: ActionParams, body: ReasonForm, response: pageResponses },
    },
    async (request, reply) => {
      const { participant_event_id: pe, action } = request.params;
      const ctx = routeCtx(deps, request);
      try {
        await applyStaffAction(ctx, pe, action, request.body.reason);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        return renderConfirm(deps, request, reply, 422, {
          errors: [{ message: error.message }],
          reason: request.body.reason ?? '',
        });
      }
      return reply.redirect(`${participantPath(ctx.access.event.id, pe)}?done=${action}`, 303);
    },
  );

  web.post(
    `${BASE}/notes`,
    {
      config: { action: 'notes.write', credential: 'session_cookie' },
      schema: { hide: true, params: ParticipantParams, body: NoteForm, response: pageResponses },
    },
    async (request, reply) => {
      const pe = request.params.participant_event_id;
      const ctx = routeCtx(deps, request);
      const { _csrf, ...input } = request.body;
      try {
        await createNote(ctx, pe, input);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
        const data = await pageData(ctx, pe, await readDetail(ctx, pe));
        return reply.page(422, 'staff/participant', {
          ...data,
          title: errorTitle(true, String(data.title)),
          errors: [{ field: 'note-content', message: error.message }],
          noteError: error.message,
          noteContent: input.content,
        });
      }
      return reply.redirect(`${participantPath(ctx.access.event.id, pe)}?done=note#notes`, 303);
    },
  );
}
