/** Event groups and group membership routes (organiser API; docs/organiser-api.md "Groups"). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { registrationInEvent } from '../notes/notes.service.js';
import {
  CreateGroupRequest,
  GroupBody,
  GroupIdParams,
  GroupList,
  MembershipBody,
  MembershipParams,
  SetGroupsRequest,
  UpdateGroupRequest,
} from './groups.schemas.js';
import * as service from './groups.service.js';

const tags = ['groups'];
const config = { action: 'groups.manage' } as const;
const EventParams = Type.Object({ event_id: EventIdParam });
const WHO =
  'Event admins, series owners/organizers of the event’s series and global admins; other event roles get 403, API keys 403. `{event_id}`: numeric id or event UUID (a slug is 404).';
const NAME =
  '`name` is trimmed, 1..100 characters, unique per event case-insensitively (409 `A group with this name already exists`); `color` is `#RRGGBB` (stored upper case) or null (422 otherwise).';

export function groupRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/groups',
    {
      config,
      schema: {
        tags,
        summary: 'Groups of an event',
        description: `By name (case-insensitive), then id; \`member_count\` = registrations assigned. ${WHO}`,
        params: EventParams,
        response: { 200: GroupList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.listGroups(routeCtx(deps, request)),
  );

  app.post(
    '/events/:event_id/groups',
    {
      config,
      schema: {
        tags,
        summary: 'Create a group',
        description: `201 \`{group}\`. ${NAME} Audited (\`groups.create\`). ${WHO}`,
        params: EventParams,
        body: CreateGroupRequest,
        response: { 201: GroupBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await service.createGroup(routeCtx(deps, request), request.body);
      return reply.status(201).send(body);
    },
  );

  app.patch(
    '/events/:event_id/groups/:id',
    {
      config,
      // An unknown group is 404 before an invalid body is 422 (docs/decisions.md check order).
      preValidation: async (request) => service.groupInEvent(routeCtx(deps, request), request.params.id),
      schema: {
        tags,
        summary: 'Rename or recolour a group',
        description: `Either or both of \`name\`, \`color\`. 404 \`Group not found\` for an unknown id or another event’s group. ${NAME} Audited (\`groups.update\`, field names only). ${WHO}`,
        params: GroupIdParams,
        body: UpdateGroupRequest,
        response: { 200: GroupBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request) => service.updateGroup(routeCtx(deps, request), request.params.id, request.body),
  );

  app.delete(
    '/events/:event_id/groups/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a group',
        description: `204; its memberships go with it (their registrations’ \`updated_at\` is bumped). 404 \`Group not found\`. Audited (\`groups.delete\`). ${WHO}`,
        params: GroupIdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteGroup(routeCtx(deps, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/events/:event_id/participants/:participant_event_id/groups',
    {
      config,
      // 404 (unknown registration) before 422 (invalid body): the contract's check order.
      preValidation: async (request) => {
        await registrationInEvent(routeCtx(deps, request), request.params.participant_event_id);
      },
      schema: {
        tags,
        summary: 'Set the groups of a registration',
        description: `Replaces the registration’s groups with \`group_ids\` (duplicates ignored; \`[]\` removes all) and bumps its \`updated_at\`. 404 \`Participant not found for this event\`; 422 \`Not groups of this event: …\` for ids that are not groups of this event. 200 with the registration’s groups by name. Audited (\`groups.assign\`). ${WHO}`,
        params: MembershipParams,
        body: SetGroupsRequest,
        response: { 200: MembershipBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => {
      const { participant_event_id } = request.params;
      return service.setRegistrationGroups(routeCtx(deps, request), participant_event_id, request.body);
    },
  );
}
