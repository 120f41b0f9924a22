/** A series' API keys (organiser API; docs/organiser-api.md "API keys"). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { ApiKeyList, ApiKeyParams, CreateApiKeyRequest, CreatedApiKey } from './api-keys.schemas.js';
import * as service from './api-keys.service.js';

const tags = ['api keys'];
const config = { action: 'api_keys.manage' } as const;
const Params = Type.Object({ series_id: ApiKeyParams.properties.series_id });
const WHO =
  'Series owners and global admins; organizers and event roles 403, API keys 403. `{series_id}`: series UUID or slug (`current` → 400).';
const LAST_USED = '`last_used_at` is recorded after successful requests, at most once per key per minute.';

export function apiKeyRoutes(app: Api, deps: Deps): void {
  app.get(
    '/series/:series_id/api_keys',
    {
      config,
      schema: {
        tags,
        summary: 'API keys of a series and its events',
        description: `Series keys and event keys of the series’ events, revoked ones included, newest first: name, owner, created, last used. Never the secret. ${LAST_USED} ${WHO}`,
        params: Params,
        response: { 200: ApiKeyList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.listApiKeys(routeCtx(deps, request)),
  );

  app.post(
    '/series/:series_id/api_keys',
    {
      config,
      schema: {
        tags,
        summary: 'Issue an API key',
        description: `\`{name, kind: series|event, event_id?}\`; the caller owns the key. 201 \`{api_key, secret}\`: the secret is in this response only (stored as a digest, never logged). 422 for a blank name, a missing \`event_id\` on an event key (or one on a series key), or an event outside this series. Audited (\`keys.create\`, without the secret). ${WHO}`,
        params: Params,
        body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await service.createApiKey(routeCtx(deps, request), request.body);
      return reply.status(201).header('Cache-Control', 'no-store').send(body);
    },
  );

  app.delete(
    '/series/:series_id/api_keys/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke an API key',
        description: `204; the key stops working on its next request. 404 \`API key not found\` (unknown UUID or a key of another series); 409 \`API key is already revoked\`. Audited (\`keys.revoke\`). ${WHO}`,
        params: ApiKeyParams,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.revokeApiKey(routeCtx(deps, request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
