/**
 * Pending invitations and guardian resend (docs/organiser-api.md
 * "Invitations"): `GET /events/{e}/invitations`, `POST …/invitations/{id}/resend|revoke`,
 * `POST /events/{e}/participants/{pe}/guardians/{id}/resend`.
 */
import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { DateTime, EventIdParam, errorResponses, Nullable } from '../../../http/schema-helpers.js';
import type { Api } from '../../../http/typed.js';
import { PathIdParam } from '../../../lib/identifiers.js';
import { resendGuardianInvitation } from './guardian-resend.service.js';
import { listPendingInvitations, resendInvitation, revokeInvitation } from './pending.service.js';

const tags = ['participants'];

const Invitation = (status: string) =>
  Type.Object({
    id: Type.Integer(),
    email: Type.String(),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    status: Type.Literal(status),
    expired: Type.Boolean({
      description: 'The link has lapsed (`expires_at` passed); resend issues a fresh one',
    }),
    created_at: DateTime,
    sent_at: Type.String({ format: 'date-time', description: 'When the current link was emailed' }),
    expires_at: DateTime,
    invited_by: Nullable(
      Type.String({ description: "The inviting user's name (null: a key without owner, the CLI)" }),
    ),
  });

const ListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'Case-insensitive substring of the email or name' }),
    ),
    before: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,9}$', description: 'Cursor: the `next_before` of the previous page' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);

const WHO =
  'Callers: as the invite (`POST /events/{event_id}/participants`): an event API key of the event, a series API key of its series, or a user with participants access (global admin, series role, event role other than `read_only`). `{event_id}`: numeric id, UUID or slug.';
const InvitationParams = Type.Object({ event_id: EventIdParam, id: PathIdParam('Invitation id') });

export function pendingInvitationRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/invitations',
    {
      config: { action: 'invitations.manage' },
      schema: {
        tags,
        summary: 'Pending invitations of the event',
        description: `Invitations not yet accepted or revoked, lapsed ones included (\`expired: true\`). Newest first by id; \`limit\` 1..200 (default 50); \`next_before\` (null on the last page) is passed back as \`before\`. ${WHO}`,
        params: Type.Object({ event_id: EventIdParam }),
        querystring: ListQuery,
        response: {
          200: Type.Object({
            invitations: Type.Array(Invitation('pending')),
            next_before: Nullable(Type.String()),
          }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) => listPendingInvitations(routeCtx(deps, request), request.query),
  );

  app.post(
    '/events/:event_id/invitations/:id/resend',
    {
      config: { action: 'invitations.manage' },
      schema: {
        tags,
        summary: 'Resend a pending invitation',
        description: `Issues a fresh 30-day link and emails it again (tokens are stored as digests, so the old link cannot be re-sent and stops working); a lapsed invitation is renewed the same way. 404 \`Invitation not found\` (unknown, or of another event); 409 \`This invitation is no longer pending\` (accepted, revoked, or replaced by a newer invite); 422 \`This email is banned from events\`; 409 \`This email is already registered for this event\`. Audited \`invitations.resend\`. No body. ${WHO}`,
        params: InvitationParams,
        response: {
          200: Type.Object({ invitation: Invitation('pending') }),
          ...errorResponses(401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => resendInvitation(routeCtx(deps, request), request.params.id),
  );

  app.post(
    '/events/:event_id/invitations/:id/revoke',
    {
      config: { action: 'invitations.manage' },
      schema: {
        tags,
        summary: 'Revoke a pending invitation',
        description: `Status \`revoked\`: the emailed link stops working (the landing page and \`POST /registrations\` refuse it). 404 \`Invitation not found\`; 409 \`This invitation is no longer pending\`. The address may be invited again. Audited \`invitations.revoke\`. No body. ${WHO}`,
        params: InvitationParams,
        response: {
          200: Type.Object({ invitation: Invitation('revoked') }),
          ...errorResponses(401, 403, 404, 409),
        },
      },
    },
    async (request) => revokeInvitation(routeCtx(deps, request), request.params.id),
  );

  app.post(
    '/events/:event_id/participants/:participant_event_id/guardians/:id/resend',
    {
      config: { action: 'guardians.resend' },
      schema: {
        tags,
        summary: "Resend a guardian's portal invitation",
        description:
          'Emails the guardian a fresh 7-day portal link (the old link stops working; an expired one is replaced the same way). Only while the registration is `awaiting_guardian`. Checks in order: 404 `Participant not found for this event`, 404 `Guardian not found`, 409 `Guardians are invited only while the registration is awaiting_guardian`, 409 `This guardian has already completed the guardian steps` / `This guardian has declined`, 422 `This guardian has no email address`. The response carries no email (guardian contacts are hidden from `limited`). Audited `guardians.resend` (`renewed: true` when the old link had lapsed). Users with participants access (global admin, series role, event role other than `read_only`); API keys 403. `{event_id}`: numeric id, UUID or slug.',
        params: Type.Object({
          event_id: EventIdParam,
          participant_event_id: PathIdParam('participant_event_id'),
          id: PathIdParam('Guardian id'),
        }),
        response: {
          200: Type.Object({
            guardian: Type.Object({
              id: Type.Integer(),
              status: Type.String({ description: '`invited` or `accepted`' }),
              invite_sent_at: DateTime,
              invite_expires_at: DateTime,
            }),
          }),
          ...errorResponses(401, 403, 404, 409, 422),
        },
      },
    },
    async (request) =>
      resendGuardianInvitation(
        routeCtx(deps, request),
        request.params.participant_event_id,
        request.params.id,
      ),
  );
}
