/** NFC badge routes (docs/decisions.md "Check-in"): ensure, confirm, reset under a registration of the event. */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { DateTime, EventIdParam, errorResponses, NullableDateTime } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import * as service from './nfc.service.js';

const tags = ['check-in'];
const Params = Type.Object({
  event_id: EventIdParam,
  pe: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'participant_event_id' }),
});
const EnsureBody = Type.Object({
  badge_token: Type.String(),
  assigned: Type.Boolean({ description: 'The token has been confirmed as written to a badge' }),
  assigned_at: NullableDateTime,
});
const ConfirmRequest = Type.Union([
  Type.Object(
    { badge_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);
const ConfirmBody = Type.Object({
  success: Type.Literal(true),
  badge_token: Type.String(),
  assigned_at: DateTime,
});
const WHO =
  'Users with event access other than `read_only`; API keys get 403. Unknown registration → 404 `Participant not found for this event`; NFC module off → 422 `NFC badges are not enabled for this event`.';
const errors = errorResponses(400, 401, 403, 404, 422);

export function nfcRoutes(app: Api, deps: Deps): void {
  const base = '/events/:event_id/participant_events/:pe/nfc_badge';
  const pe = (request: { params: { pe: number } }) => request.params.pe;

  app.post(
    `${base}/ensure`,
    {
      config: { action: 'nfc_badges.write' },
      schema: {
        tags,
        summary: 'Ensure a badge token',
        description: `Creates a random token (unique in the event) when the registration has none; otherwise returns the current one. ${WHO}`,
        params: Params,
        response: { 200: EnsureBody, ...errors },
      },
    },
    async (request) => service.ensureBadge(routeCtx(deps, request), pe(request)),
  );

  app.post(
    `${base}/confirm`,
    {
      config: { action: 'nfc_badges.write' },
      schema: {
        tags,
        summary: 'Confirm the badge was written',
        description: `Records the assignment time (kept on repeats). \`badge_token\`, when sent, must equal the registration's token (else 422); no token yet → 422. ${WHO}`,
        params: Params,
        body: ConfirmRequest,
        response: { 200: ConfirmBody, ...errors },
      },
    },
    async (request) => service.confirmBadge(routeCtx(deps, request), pe(request), request.body ?? {}),
  );

  app.post(
    `${base}/reset`,
    {
      config: { action: 'nfc_badges.write' },
      schema: {
        tags,
        summary: 'Reset the badge token',
        description: `Issues a new token and clears the assignment: the old badge no longer scans. ${WHO}`,
        params: Params,
        response: { 200: EnsureBody, ...errors },
      },
    },
    async (request) => service.resetBadge(routeCtx(deps, request), pe(request)),
  );
}
