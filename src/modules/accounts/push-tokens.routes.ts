/** POST /push_tokens, DELETE /push_tokens/{token}, DELETE /push_tokens (docs/decisions.md "Account and sessions"). Users only. */

import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import {
  DeletePushTokenRequest,
  PushTokenParams,
  PushTokenSuccess,
  RegisterPushTokenRequest,
} from './push-tokens.schemas.js';
import * as service from './push-tokens.service.js';

const tags = ['account'];
const WHO =
  'Any user credential (mobile token or unscoped global API token); API keys and the `bans:write`-scoped token get 403.';
const DELETE_RULES = `Deletes one of the caller's own push tokens (APNs tokens match case-insensitively). 200 \`{"success":true}\`; 404 \`{"error":"Push token not found"}\` when the caller has no such token, including a token registered by someone else. ${WHO}`;

export function pushTokenRoutes(app: Api, deps: Deps): void {
  app.post(
    '/push_tokens',
    {
      config: { action: 'push_tokens.write' },
      schema: {
        tags,
        summary: 'Register a device push token',
        description: [
          'Upsert. The push service is recognised from the token: Expo (`ExponentPushToken[…]` or `ExpoPushToken[…]`), APNs (64 hex characters, stored lowercase) or FCM (a registration token: `<id>:<token>` with at least 100 URL-safe characters after the colon, or at least 100 URL-safe characters); anything else → 422 `Unrecognised push token format`.',
          '201 `{"success":true}` when the token is new; 200 when the caller already had it; a token registered by another user moves to the caller (the device is now signed in as the caller): 200. Unknown body fields are ignored.',
          WHO,
        ].join('\n\n'),
        body: RegisterPushTokenRequest,
        response: { 200: PushTokenSuccess, 201: PushTokenSuccess, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { created } = await service.registerPushToken(routeCtx(deps, request), request.body);
      return reply.status(created ? 201 : 200).send({ success: true });
    },
  );

  app.delete(
    '/push_tokens/:token',
    {
      config: { action: 'push_tokens.write' },
      schema: {
        tags,
        summary: 'Unregister a device push token (token in the path)',
        description: DELETE_RULES,
        params: PushTokenParams,
        response: { 200: PushTokenSuccess, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.deletePushToken(routeCtx(deps, request), request.params.token),
  );

  app.delete(
    '/push_tokens',
    {
      config: { action: 'push_tokens.write' },
      schema: {
        tags,
        summary: 'Unregister a device push token (token in the body)',
        description: `Body \`{"token": "<push token>"}\` (missing → 422). ${DELETE_RULES}`,
        body: DeletePushTokenRequest,
        response: { 200: PushTokenSuccess, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => service.deletePushToken(routeCtx(deps, request), request.body.token),
  );
}
