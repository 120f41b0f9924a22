/** The ban list (spec "Bans"; docs/decisions.md "Series, events and bans"): POST/GET /bans, GET /bans/{id}, revoke, reinstate. */

import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import {
  BanBody,
  BanConflictBody,
  BanIdParams,
  BanListBody,
  CreateBanRequest,
  ListBansQuery,
  MAX_BAN_EMAILS,
} from './bans.schemas.js';
import * as service from './bans.service.js';

const tags = ['bans'];

const WHO_WRITES =
  'Global admins only: a mobile token of a global admin or an unscoped global API token (honoured only while its owner is a global admin). Everyone else, event and series API keys included, gets 403 `Only global admins can manage the ban list`.';
const WHO_READS = `${WHO_WRITES} A \`bans:write\`-scoped global token gets 403 \`This token is limited to: bans:write\`.`;
const BAN_STATUS_NOTE =
  '`status`: `Revoked` | `Indefinite` | `Active` | `Expired`; `active` = not revoked and not expired.';

export function banRoutes(app: Api, deps: Deps): void {
  app.post(
    '/bans',
    {
      config: { action: 'bans.create' },
      schema: {
        tags,
        summary: 'Ban a person (all of their email addresses)',
        description: [
          'One call creates one ban holding every address of one person.',
          `Global admins only (mobile token or global API token); this is the only endpoint a \`bans:write\`-scoped global token reaches. Everyone else, event and series API keys included, gets 403 \`Only global admins can manage the ban list\`.`,
          `Addresses: \`emails\` wins over \`email\` whenever it is sent; each is trimmed and lowercased, blanks are ignored and duplicates collapse (at most ${MAX_BAN_EMAILS}). None → 422 \`At least one email is required\`; malformed ones → 422 \`Invalid email format: <addresses>\`.`,
          '`expires_at`: omitted means indefinite; anything but an ISO 8601 date-time with a time zone (null included) → 422; a time not in the future → 422.',
          'If any address is already on a ban (whatever its status: reinstate that ban instead) → 409 `{error, bans:[Ban]}` listing those bans, and nothing is created. Two identical requests racing get one 201 and one 409.',
          `201 \`{ban}\`. ${BAN_STATUS_NOTE} Audited as \`bans.create\`.`,
        ].join('\n\n'),
        body: CreateBanRequest,
        response: { 201: BanBody, 409: BanConflictBody, ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      const result = await service.createBan(routeCtx(deps, request), request.body);
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/bans',
    {
      config: { action: 'bans.read' },
      schema: {
        tags,
        summary: 'List bans',
        description: `Newest first. Filters: \`active\` (true: in force; false: revoked or expired) and \`email\` (exact address after trimming and lowercasing). Paging: \`limit\` (1..500, default 100) and \`offset\`; \`has_more\` says whether another page exists. ${WHO_READS} ${BAN_STATUS_NOTE}`,
        querystring: ListBansQuery,
        response: { 200: BanListBody, ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => service.listBans(routeCtx(deps, request), request.query),
  );

  app.get(
    '/bans/:id',
    {
      config: { action: 'bans.read' },
      schema: {
        tags,
        summary: 'One ban',
        description: `404 \`Ban not found\` for an unknown or non-UUID id. ${WHO_READS} ${BAN_STATUS_NOTE}`,
        params: BanIdParams,
        response: { 200: BanBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.getBan(routeCtx(deps, request), request.params.id),
  );

  app.post(
    '/bans/:id/revoke',
    {
      config: { action: 'bans.manage' },
      schema: {
        tags,
        summary: 'Revoke a ban (lift it now)',
        description: `Sets \`revoked_at\`; the addresses are no longer banned. No request body. 409 \`Ban is already revoked\` when it is; 404 \`Ban not found\`. 200 \`{ban}\`. Audited as \`bans.revoke\`. ${WHO_READS}`,
        params: BanIdParams,
        response: { 200: BanBody, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => service.revokeBan(routeCtx(deps, request), request.params.id),
  );

  app.post(
    '/bans/:id/reinstate',
    {
      config: { action: 'bans.manage' },
      schema: {
        tags,
        summary: 'Reinstate a revoked ban',
        description: `Clears \`revoked_at\`; \`expires_at\` is unchanged (a ban whose expiry has passed comes back as \`Expired\`). No request body. 409 \`Ban is not revoked\` when it is not revoked; 404 \`Ban not found\`. 200 \`{ban}\`. Audited as \`bans.reinstate\`. ${WHO_READS}`,
        params: BanIdParams,
        response: { 200: BanBody, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => service.reinstateBan(routeCtx(deps, request), request.params.id),
  );
}
