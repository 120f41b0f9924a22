/**
 * POST /invitations/claim: the API twin of the web invitation landing page (docs/decisions.md "Registration side" "A
 * participant signs in like any user"; README "Registration flow"). Sign-in never creates accounts
 * (docs/decisions.md "Account and sessions"), so an invitee first claims the invitation: holding the emailed token proves the
 * address received the invitation, and Muster makes sure that address has an account (no roles).
 * The app then runs the one-time-code sign-in for that email and `POST /registrations
 * {invitation_token}`. The token stays usable (claiming starts nothing).
 */
import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { errorResponses } from '../../../http/schema-helpers.js';
import type { Api } from '../../../http/typed.js';
import { unprocessable } from '../../../lib/errors.js';
import { EMAIL_BANNED } from './invitations.service.js';
import { ensureInviteeAccount, invitationByToken } from './invitee.service.js';

/** Per IP: the token is a bearer-equivalent secret, so guessing is throttled like the guardian portal. */
export const CLAIM_RATE_LIMIT = { max: 30, timeWindow: '1 minute' } as const;
export const INVITATION_UNUSABLE = 'Invalid or expired invitation token';

const ClaimRequest = Type.Object(
  {
    invitation_token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The token from the invitation email link',
    }),
  },
  { additionalProperties: false },
);
const ClaimResponse = Type.Object({
  email: Type.String({ description: 'The invited address: sign in with it (one-time code)' }),
  event: Type.String({ description: 'The event name' }),
});

const DESCRIPTION = `No Authorization header: the invitation token is the credential. Makes sure the invited address has a Muster account (created with the invitation's name and no roles when missing; idempotent), so the one-time-code sign-in can email it a code. Answers \`{email, event}\`. Unknown, used, revoked or expired token → 422 \`${INVITATION_UNUSABLE}\`; banned address → 422 \`${EMAIL_BANNED}\`. More than ${CLAIM_RATE_LIMIT.max} requests per ${CLAIM_RATE_LIMIT.timeWindow} from one IP → 429.`;

export function inviteeRoutes(app: Api, deps: Deps): void {
  app.post(
    '/invitations/claim',
    {
      config: { public: 'none', rateLimit: { ...CLAIM_RATE_LIMIT } },
      schema: {
        tags: ['registration'],
        summary: 'Claim an invitation: make sure the invitee has an account to sign in with',
        description: DESCRIPTION,
        body: ClaimRequest,
        response: { 200: ClaimResponse, ...errorResponses(400, 413, 422, 429) },
      },
    },
    async (request) => {
      const { invitation_token: token } = request.body;
      const outcome = await ensureInviteeAccount(deps, token);
      if (outcome === 'banned') throw unprocessable(EMAIL_BANNED);
      const invitation = outcome === 'ok' ? await invitationByToken(deps, token) : null;
      if (!invitation) throw unprocessable(INVITATION_UNUSABLE);
      return { email: invitation.email, event: invitation.eventName };
    },
  );
}
