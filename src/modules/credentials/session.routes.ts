/** DELETE /session and POST /session/refresh (spec "Account and credentials"; docs/decisions.md "Account and sessions"). */

import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { SessionBody, SuccessBody } from './session.schemas.js';
import * as service from './session.service.js';

const tags = ['account'];
const REFRESH_HEADER = 'X-Token-Refresh-Recommended';
const MOBILE_ONLY =
  'Mobile tokens only: any other valid credential (global API token, series or event API key) gets 403 `This endpoint requires a mobile token`; a missing, invalid, expired or revoked credential gets 401 `{"error":"Unauthorized"}`.';

export function sessionRoutes(app: Api, deps: Deps): void {
  app.delete(
    '/session',
    {
      config: { action: 'session.delete' },
      schema: {
        tags,
        summary: 'Sign out: revoke the presented mobile token',
        description: [
          'Revokes the mobile token in the Authorization header; from then on it is 401 everywhere. No request body (an empty JSON body is accepted). 200 `{"success":true}`. Audited as `session.delete`.',
          MOBILE_ONLY,
          `\`${REFRESH_HEADER}\` is never sent on this response: the token it would describe is gone.`,
        ].join('\n\n'),
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const result = await service.signOut(routeCtx(deps, request));
      reply.removeHeader(REFRESH_HEADER);
      return result;
    },
  );

  app.post(
    '/session/refresh',
    {
      config: { action: 'session.refresh' },
      schema: {
        tags,
        summary: 'Rotate the presented mobile token',
        description: [
          'Issues a new mobile token (valid 14 days from now), then revokes the presented one (its record points at the successor), in one transaction. No request body: an empty body or any JSON value is accepted and ignored; malformed JSON is 400.',
          `200 \`{token, expires_at, user:{id, name, email, global_admin, events}}\`; \`events\` are the accessible-event entries of GET /events. Store the new token at once: the old one is 401 from now on. Of concurrent refreshes of one token exactly one succeeds; the others get 401 \`{"error":"Unauthorized"}\` and create nothing. \`${REFRESH_HEADER}\` is not sent on a successful refresh (it described the old token). Audited as \`session.refresh\`.`,
          MOBILE_ONLY,
        ].join('\n\n'),
        response: { 200: SessionBody, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const result = await service.refreshSession(routeCtx(deps, request));
      reply.removeHeader(REFRESH_HEADER);
      return result;
    },
  );
}
