/**
 * Resend from where the problem is (docs/staff-dashboard.md "Resend from where the problem is"):
 * - POST /staff/events/{e}/participants/{pe}/guardians/{id}/resend (`guardians.resend`): a fresh
 *   portal link for that guardian (`resendGuardianInvitation`: the old link stops working; also
 *   "issue a fresh link" when it had expired) → 303 to the participant page, or with
 *   `back=overview` to the event overview's list of guardians awaited, each with a notice.
 * - POST /staff/events/{e}/participants/{pe}/invitation (`participants.invite`): an imported
 *   registrant (status `invited`: not started) gets their invitation again (`inviteRegistrant`:
 *   the pending one resent, or a new one) → 303 to the participant page with a notice.
 * Refusals (409 not awaiting a guardian / already started, 404, 422 no email) are error pages with
 * the service's message. Plain forms with the CSRF field.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { resendGuardianInvitation } from '../registration/invitations/guardian-resend.service.js';
import { inviteRegistrant } from '../registration/invitations/registrant-invite.service.js';
import { pageResponses } from '../web/web.schemas.js';

const ID = Type.String({ pattern: '^[0-9]{1,9}$' });
const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const GuardianParams = Type.Object(
  { event_id: ID, pe: Type.String({ maxLength: 20 }), id: Type.String({ maxLength: 20 }) },
  { additionalProperties: false },
);
const GuardianForm = Type.Object(
  { ...Csrf, back: Type.Optional(Type.Literal('overview')) },
  { additionalProperties: false },
);
const RegistrantParams = Type.Object(
  { event_id: ID, pe: Type.String({ maxLength: 20 }) },
  { additionalProperties: false },
);
const ButtonForm = Type.Object(Csrf, { additionalProperties: false });

export function resendPages(web: Api, deps: Deps): void {
  web.post(
    '/staff/events/:event_id/participants/:pe/guardians/:id/resend',
    {
      config: { action: 'guardians.resend', credential: 'session_cookie' },
      schema: { hide: true, params: GuardianParams, body: GuardianForm, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { pe, id } = request.params;
      await resendGuardianInvitation(ctx, pe, id);
      const event = `/staff/events/${ctx.access.event.id}`;
      const to =
        request.body.back === 'overview'
          ? `${event}?done=guardian_link#guardians-awaited`
          : `${event}/participants/${pe}?done=guardian_link#guardian-links`;
      return reply.redirect(to, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/participants/:pe/invitation',
    {
      config: { action: 'participants.invite', credential: 'session_cookie' },
      schema: { hide: true, params: RegistrantParams, body: ButtonForm, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { pe } = request.params;
      const outcome = await inviteRegistrant(ctx, pe);
      return reply.redirect(
        `/staff/events/${ctx.access.event.id}/participants/${pe}?done=invitation_${outcome}#invitation`,
        303,
      );
    },
  );
}
