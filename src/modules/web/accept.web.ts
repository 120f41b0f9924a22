/**
 * Invitation landing (docs/decisions.md "Participants API" invite email → "Registration side" start): `GET /register/accept?token=…` is the
 * link in the invitation email.
 * - Unknown token → 404 page; used → a link to the registration; revoked or expired → 410 page.
 * - Not signed in → "Continue": POST /register/accept/continue makes sure the invited address has
 *   an account (invitee.service.ts) and sends the browser through the one-time-code sign-in, back to
 *   this page.
 * - Signed in as the invited address → "Start my registration": POST /register/accept runs
 *   `startRegistration` (the service of POST /api/v1/registrations) → 303 to the form. Its refusals
 *   (422, 409) re-render this page with the message.
 * - Signed in as someone else → says so, with a sign-out button.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { ApiError } from '../../lib/errors.js';
import { EMAIL_BANNED } from '../registration/invitations/invitations.service.js';
import {
  ensureInviteeAccount,
  type InvitationView,
  invitationByToken,
} from '../registration/invitations/invitee.service.js';
import { startRegistration } from '../registration/lifecycle/registrations.service.js';
import { eventBrand } from './brand.js';
import { signedInAs } from './session.js';
import { PAGE_RATE_LIMIT, pageResponses } from './web.schemas.js';

const Token = Type.String({ maxLength: 300, description: 'The invitation token from the email link' });
export const TokenQuery = Type.Object({ token: Type.Optional(Token) }, { additionalProperties: false });
export const TokenForm = Type.Object(
  { _csrf: Type.Optional(Type.String({ maxLength: 200 })), token: Type.Optional(Token) },
  { additionalProperties: false },
);

export const landingUrl = (token: string) => `/register/accept?token=${encodeURIComponent(token)}`;

/** The landing page for `token`, or the page saying why it cannot be used. */
export async function renderLanding(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  failure?: { status: number; message: string },
) {
  const invitation = await invitationByToken(deps, token);
  if (!invitation) {
    return reply.page(404, 'message', {
      title: 'Invitation not found',
      message: 'This invitation link is not valid. Check that you opened the whole link from the email.',
      alert: true,
    });
  }
  const closed = closedPage(invitation);
  if (closed) return reply.page(closed.status, 'message', closed.data);
  const who = await signedInAs(deps, request);
  const step = !who ? 'continue' : who.toLowerCase() === invitation.email ? 'start' : 'other-account';
  return reply.page(failure?.status ?? 200, 'accept', {
    title: `Register for ${invitation.eventName}`,
    eventName: invitation.eventName,
    ...eventBrand(invitation.eventName, invitation.eventLogoUrl, invitation.eventBannerUrl),
    email: invitation.email,
    token,
    step,
    errors: failure ? [{ message: failure.message }] : [],
  });
}

function closedPage(inv: InvitationView): { status: number; data: Record<string, unknown> } | null {
  if (inv.state === 'accepted') {
    return {
      status: 200,
      data: {
        title: 'Invitation already accepted',
        message: `You have already started your registration for ${inv.eventName}.`,
        link: {
          href: inv.registrationId ? `/register/${inv.registrationId}` : '/',
          text: 'Go to your registration',
        },
      },
    };
  }
  if (inv.state === 'revoked' || inv.state === 'expired') {
    return {
      status: 410,
      data: {
        title: inv.state === 'expired' ? 'Invitation expired' : 'Invitation withdrawn',
        message: `This invitation to ${inv.eventName} can no longer be used. Ask the event team for a new one.`,
        alert: true,
      },
    };
  }
  return null;
}

export function acceptPages(app: Api, deps: Deps): void {
  app.get(
    '/register/accept',
    {
      config: { public: 'none', rateLimit: PAGE_RATE_LIMIT },
      schema: { hide: true, querystring: TokenQuery, response: pageResponses },
    },
    async (request, reply) => renderLanding(deps, request, reply, request.query.token ?? ''),
  );

  app.post(
    '/register/accept',
    {
      config: {
        action: 'registrations.self',
        credential: 'session_cookie',
        rateLimit: PAGE_RATE_LIMIT,
      },
      schema: { hide: true, body: TokenForm, response: pageResponses },
    },
    async (request, reply) => {
      const token = request.body.token ?? '';
      let ticket: { id: number };
      try {
        ({ ticket } = await startRegistration(routeCtx(deps, request), token));
      } catch (error) {
        if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409))
          throw error;
        return renderLanding(deps, request, reply, token, {
          status: error.statusCode,
          message: error.message,
        });
      }
      return reply.redirect(`/register/${ticket.id}?done=started`, 303);
    },
  );

  app.post(
    '/register/accept/continue',
    {
      config: { public: 'none', rateLimit: PAGE_RATE_LIMIT },
      schema: { hide: true, body: TokenForm, response: pageResponses },
    },
    async (request, reply) => {
      const token = request.body.token ?? '';
      const outcome = await ensureInviteeAccount(deps, token);
      if (outcome === 'banned')
        return renderLanding(deps, request, reply, token, { status: 422, message: EMAIL_BANNED });
      // Unknown, used, revoked or expired: the landing page says why.
      if (outcome === 'unusable') return reply.redirect(landingUrl(token), 303);
      return reply.redirect(`/signin?next=${encodeURIComponent(landingUrl(token))}`, 303);
    },
  );
}
