/**
 * Participant-side routes (docs/decisions.md "Registration side"): `POST /registrations`, `GET /tickets`,
 * `GET /tickets/{participant_event_id}`, `POST /registrations/{pe}/submit|withdraw`,
 * `POST /consents/{id}/sign`. Signed-in users with a mobile token, on their own registrations;
 * other credentials 403, someone else's registration 404.
 */

import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { errorResponses } from '../../../http/schema-helpers.js';
import type { Api } from '../../../http/typed.js';
import { PathIdParam } from '../../../lib/identifiers.js';
import {
  SignBody,
  SignRequest,
  StartRequest,
  SubmitBody,
  TicketBody,
  TicketList,
  WithdrawRequest,
} from './registration.schemas.js';
import * as service from './registrations.service.js';

const tags = ['registration'];
const WHO =
  'Signed-in users with a mobile token, on their own registrations (unknown or malformed id → 404 `Registration not found`; another user’s → 403 `This is not your registration`, docs/decisions.md "Status codes and check order"); API keys and global API tokens 403.';
const PeParams = Type.Object({
  participant_event_id: PathIdParam('participant_event_id'),
});

export function registrationRoutes(app: Api, deps: Deps): void {
  const config = { action: 'registrations.self' as const };
  // The registration in the path is the caller's: the gate resolves it (404, then 403 not yours).
  const own = { action: 'registrations.own' as const };

  app.post(
    '/registrations',
    {
      config,
      schema: {
        tags,
        summary: 'Start a registration from an invitation',
        description: `\`{invitation_token}\` from the invitation email. The signed-in user’s email must be the invited one. Creates the registration (or moves an imported \`invited\` one) to \`in_progress\` and marks the invitation used. 201 \`{ticket}\`. 422 \`Invalid invitation token\` / \`This invitation has already been used\` / \`This invitation has been revoked\` / \`This invitation has expired\` / \`This email is banned from events\` / \`This invitation was sent to a different email address\` / \`Registration for this event is not open\`; 409 \`This email is already registered for this event\`. ${WHO}`,
        body: StartRequest,
        response: { 201: TicketBody, ...errorResponses(400, 401, 403, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const result = await service.startRegistration(routeCtx(deps, request), body.invitation_token);
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/tickets',
    {
      config,
      schema: {
        tags,
        summary: 'The caller’s registrations as tickets',
        description: `Earliest event first. \`qr_payload\` is the bare \`registration_uuid\` (what the door scanner reads and sends back as \`participant_id\`); \`onboarding_url\` is the absolute link of the web page that continues the registration. ${WHO}`,
        response: { 200: TicketList, ...errorResponses(401, 403) },
      },
    },
    async (request) => service.listTickets(routeCtx(deps, request)),
  );

  app.get(
    '/tickets/:participant_event_id',
    {
      config: own,
      schema: {
        tags,
        summary: 'One of the caller’s registrations as a ticket',
        description: WHO,
        params: PeParams,
        response: { 200: TicketBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.getTicket(routeCtx(deps, request)),
  );

  app.post(
    '/registrations/:participant_event_id/submit',
    {
      config: own,
      schema: {
        tags,
        summary: 'Submit a registration',
        description: `Only \`in_progress\` (422 otherwise; submitting again re-requests the unsigned consents and re-sends guardian links). Required: legal first and last name, date of birth, an emergency contact, and for a minor (under 18 on the event’s start date) a guardian with an email (422 \`Registration is incomplete: <fields>\`). Requests the \`waiver\` consent (and \`freedom_waiver\` when that module is on): pending on the participant (adult) or a guardian (minor). Minors: every guardian gets a 7-day portal link by email and the registration moves to \`awaiting_guardian\`. Adults stay \`in_progress\` until the consents are signed, then \`complete\`. 200 \`{ticket, consents}\`. ${WHO}`,
        params: PeParams,
        response: { 200: SubmitBody, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => service.submitRegistration(routeCtx(deps, request)),
  );

  app.post(
    '/registrations/:participant_event_id/withdraw',
    {
      config: own,
      // The body is optional (an absent one validates as `{}`); the gate answered 404/403 before.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Withdraw from an event',
        description: `Optional \`{reason}\` (≤ 1,000 characters). Any status but \`withdrawn\`/\`rejected\` (422 otherwise). Audited. 200 \`{ticket}\`. ${WHO}`,
        params: PeParams,
        body: WithdrawRequest,
        response: { 200: TicketBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      return service.withdrawRegistration(routeCtx(deps, request), body.reason);
    },
  );

  app.post(
    '/consents/:id/sign',
    {
      config: { action: 'consents.sign' },
      schema: {
        tags,
        summary: 'Sign a consent by typing your name',
        description: `The embedded default (no e-signature provider configured): records \`signature_name\`, the time and the client IP, then re-runs the completion check (an adult whose consents are all signed becomes \`complete\`). 422 \`Signature name is required\` / \`This consent is already signed\` / \`This consent must be signed by a parent or guardian\` (minors: the guardian signs in the portal) / \`This registration is withdrawn|rejected\` / \`Consents are signed through the e-signature provider\`. 200 \`{consent, ticket}\`. Only the registration’s owner (another user’s consent → 404 \`Consent not found\`). ${WHO}`,
        params: Type.Object({ id: PathIdParam('Consent id') }),
        body: SignRequest,
        response: { 200: SignBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => {
      const body = request.body;
      return service.signOwnConsent(routeCtx(deps, request), request.params.id, {
        signatureName: body.signature_name,
        ip: request.ip,
      });
    },
  );
}
