/** POST /events/{event_id}/participants: the invite (spec "Participants"; docs/decisions.md "Participants API"). */
import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { EventIdParam } from '../../../http/schema-helpers.js';
import type { Api } from '../../../http/typed.js';
import { stringProp } from '../../../lib/narrow.js';
import { inviteParticipant } from './invitations.service.js';

const InviteRequest = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 1000, description: 'Trimmed and lowercased; required' })),
    first_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    last_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const InviteSuccess = Type.Object({
  success: Type.Literal(true),
  message: Type.String({ examples: ['Invitation sent to ada@example.com'] }),
  event: Type.String({ description: 'The event name' }),
});
const InviteFailure = Type.Object(
  { success: Type.Optional(Type.Literal(false)), error: Type.String() },
  { description: '`{success:false, error}` (401 is exactly `{"error":"Unauthorized"}`)' },
);

const DESCRIPTION = `Sends an event invitation: a 30-day one-time token (stored as a digest) and an email from the event’s \`support_email\` with a link to \`<MUSTER_BASE_URL>/register/accept?token=…\`, both in one transaction. No registration is created; the invitee starts one with \`POST /registrations\`.

Callers: an event API key of the event (incl. its legacy key), a series API key of the event’s series, or a user with participants access (global admin, series role, event role other than \`read_only\`). \`{event_id}\`: numeric id, UUID or slug.

Checks in order: 422 \`Email is required\`, 422 \`Invalid email format\`, 422 \`This email is banned from events\`, 409 \`This email is already registered for this event\` (a registration that is not \`invited\`; an imported \`invited\` registration may be invited), 409 \`An invitation has already been sent to this email\` (a pending, unexpired invitation). Unknown body fields → 422. Every failure except 401 carries \`success:false\`.`;

export function invitationRoutes(app: Api, deps: Deps): void {
  app.post(
    '/events/:event_id/participants',
    {
      config: { action: 'participants.invite' },
      // The spec's failure body is `{success:false, error}`; 401 keeps the API-wide exact body.
      onSend: async (_request, reply, payload) => {
        const status = reply.statusCode;
        if (status < 400 || status === 401 || typeof payload !== 'string') return payload;
        let error = 'Request failed';
        try {
          error = stringProp(JSON.parse(payload), 'error') ?? error;
        } catch {}
        return JSON.stringify({ success: false, error });
      },
      schema: {
        tags: ['participants'],
        summary: 'Invite a person to register for the event',
        description: DESCRIPTION,
        params: Type.Object({ event_id: EventIdParam }),
        body: InviteRequest,
        response: {
          201: InviteSuccess,
          ...Object.fromEntries([400, 401, 403, 404, 409, 413, 422].map((c) => [c, InviteFailure])),
        },
      },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const created = await inviteParticipant(ctx, request.body);
      return reply.status(201).send({
        success: true,
        message: `Invitation sent to ${created.email}`,
        event: created.eventName,
      });
    },
  );
}
