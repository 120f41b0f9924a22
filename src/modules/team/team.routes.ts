/** Team routes: event and series roles (organiser API; docs/organiser-api.md "Team"). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import {
  GrantEventRoleRequest,
  GrantedRole,
  GrantSeriesRoleRequest,
  RoleIdParam,
  RoleList,
} from './team.schemas.js';
import * as service from './team.service.js';

const tags = ['team'];
const SeriesIdParam = Type.String({ minLength: 1, maxLength: 200, description: 'Series UUID or slug' });
const EVENT_WHO =
  'Event admins, series owners/organizers of the event’s series and global admins; other event roles 403, API keys 403. `{event_id}`: numeric id or event UUID.';
const SERIES_WHO =
  'Series owners and global admins; organizers and event roles 403, API keys 403. `{series_id}`: series UUID or slug (`current` → 400: it is for series API keys).';
const GRANT =
  'Body `{email, role}`. An unknown email gets an account (named after the email until they sign in) and an email inviting them to sign in (`user_created: true`). 409 `This user already has this role`; 422 for a malformed email or unknown role. 201 `{role, user_created}`. Audited (`roles.grant`).';
const REMOVE =
  '204. 404 `Role not found` for an unknown id or another scope’s grant. Takes effect on the next request of every device of that user (roles are read per request). Audited (`roles.revoke`).';

export function teamRoutes(app: Api, deps: Deps): void {
  const eventConfig = { action: 'event_roles.manage' } as const;
  const seriesConfig = { action: 'series_roles.manage' } as const;
  const eventParams = Type.Object({ event_id: EventIdParam });
  const seriesParams = Type.Object({ series_id: SeriesIdParam });

  app.get(
    '/events/:event_id/roles',
    {
      config: eventConfig,
      schema: {
        tags,
        summary: 'Event roles (the event’s team)',
        description: `Every grant on the event, by user name. ${EVENT_WHO}`,
        params: eventParams,
        response: { 200: RoleList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.listEventRoles(routeCtx(deps, request)),
  );
  app.post(
    '/events/:event_id/roles',
    {
      config: eventConfig,
      schema: {
        tags,
        summary: 'Grant an event role',
        description: `${GRANT} ${EVENT_WHO}`,
        params: eventParams,
        body: GrantEventRoleRequest,
        response: { 201: GrantedRole, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await service.grantEventRoleByEmail(routeCtx(deps, request), request.body);
      return reply.status(201).send(body);
    },
  );
  app.delete(
    '/events/:event_id/roles/:id',
    {
      config: eventConfig,
      schema: {
        tags,
        summary: 'Remove an event role',
        description: `${REMOVE} ${EVENT_WHO}`,
        params: Type.Object({ event_id: EventIdParam, id: RoleIdParam }),
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.removeEventRole(routeCtx(deps, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/series/:series_id/roles',
    {
      config: seriesConfig,
      schema: {
        tags,
        summary: 'Series roles',
        description: `Every owner and organizer of the series, by user name. ${SERIES_WHO}`,
        params: seriesParams,
        response: { 200: RoleList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.listSeriesRoles(routeCtx(deps, request)),
  );
  app.post(
    '/series/:series_id/roles',
    {
      config: seriesConfig,
      schema: {
        tags,
        summary: 'Grant a series role',
        description: `${GRANT} ${SERIES_WHO}`,
        params: seriesParams,
        body: GrantSeriesRoleRequest,
        response: { 201: GrantedRole, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await service.grantSeriesRoleByEmail(routeCtx(deps, request), request.body);
      return reply.status(201).send(body);
    },
  );
  app.delete(
    '/series/:series_id/roles/:id',
    {
      config: seriesConfig,
      schema: {
        tags,
        summary: 'Remove a series role',
        description: `${REMOVE} 409 \`A series must keep at least one owner\` when it is the last owner. ${SERIES_WHO}`,
        params: Type.Object({ series_id: SeriesIdParam, id: RoleIdParam }),
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.removeSeriesRole(routeCtx(deps, request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
