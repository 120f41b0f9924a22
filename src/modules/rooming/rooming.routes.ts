/** Rooming API routes: inventory, rules, plan, apply (docs/rooming.md). */
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import { type Api, sendStream } from '../../http/typed.js';
import { applyRooming } from './apply.service.js';
import { doorListsPdf } from './door-lists.js';
import { planRooming } from './plan.service.js';
import { ApplyProblem, ApplyRequest, ApplyResponse, PlanRequest, PlanResponse } from './rooming.schemas.js';
import { importRooms } from './rooms.import.js';
import {
  CreateRoomRequest,
  ImportRoomsRequest,
  ImportRoomsResult,
  RoomBody,
  RoomIdParams,
  RoomList,
  UpdateRoomRequest,
} from './rooms.schemas.js';
import { createRoom, deleteRoom, listRooms, roomInEvent, updateRoom } from './rooms.service.js';
import { PutRulesRequest, RulesBody } from './rules.schemas.js';
import { getRules, putRules } from './rules.service.js';

const tags = ['rooming'];
const read = { action: 'rooms.read' } as const;
const manage = { action: 'rooming.manage' } as const;
const EventParams = Type.Object({ event_id: EventIdParam });
const WHO_READ =
  'Event admins, series owners/organizers, the event’s safeguarding leads and global admins; other roles 403, API keys 403. `{event_id}`: numeric id or UUID.';
const WHO =
  'The event’s safeguarding leads and global admins only; everyone else 403, API keys 403. `{event_id}`: numeric id or UUID.';

export function roomingRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/rooms',
    {
      config: read,
      schema: {
        tags,
        summary: 'Rooms of an event',
        description: `By venue, floor, name; each with its occupants’ names (registrations whose \`assigned_room\` is the room’s name). ${WHO_READ}`,
        params: EventParams,
        response: { 200: RoomList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => listRooms(routeCtx(deps, request)),
  );

  app.get(
    '/events/:event_id/rooms/door-lists.pdf',
    {
      config: read,
      schema: {
        tags,
        summary: 'Room door lists (PDF)',
        description: `One A4 page per room, in the rooms’ order (venue, floor, name): the room’s name and its occupants’ names, nothing else. Audited \`rooms.door_lists\` (counts only). \`Cache-Control: no-store\`. ${WHO_READ}`,
        params: EventParams,
        produces: ['application/pdf'],
        response: {
          200: Type.String({ description: 'The PDF file' }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { pdf, filename } = await doorListsPdf(routeCtx(deps, request));
      reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .header('Cache-Control', 'no-store');
      return sendStream(reply, Readable.from([pdf]));
    },
  );

  app.post(
    '/events/:event_id/rooms',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Add a room',
        description: `201 \`{room}\`. Name unique per event case-insensitively (409); \`single\` holds 1, \`twin\` 2, \`dorm\` 2+; min_age ≤ max_age; nights real dates (422). Audited \`rooms.create\`. ${WHO}`,
        params: EventParams,
        body: CreateRoomRequest,
        response: { 201: RoomBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => reply.status(201).send(await createRoom(routeCtx(deps, request), request.body)),
  );

  app.post(
    '/events/:event_id/rooms/import',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Import rooms from CSV',
        description: `Rooms whose name exists are updated, others created; all or nothing (422 names the line). Audited \`rooms.import\`. ${WHO}`,
        params: EventParams,
        body: ImportRoomsRequest,
        response: { 200: ImportRoomsResult, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => importRooms(routeCtx(deps, request), request.body.csv),
  );

  app.patch(
    '/events/:event_id/rooms/:id',
    {
      config: manage,
      // An unknown room is 404 before an invalid body is 422 (docs/decisions.md check order).
      preValidation: async (request) => roomInEvent(routeCtx(deps, request), request.params.id),
      schema: {
        tags,
        summary: 'Change a room',
        description: `Any of the room’s fields; 404 \`Room not found\`. A new name is written to its occupants’ \`assigned_room\` (one history entry each). Audited \`rooms.update\` (field names). ${WHO}`,
        params: RoomIdParams,
        body: UpdateRoomRequest,
        response: { 200: RoomBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request) => updateRoom(routeCtx(deps, request), request.params.id, request.body),
  );

  app.delete(
    '/events/:event_id/rooms/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a room',
        description: `204; 404 \`Room not found\`; 409 while people are assigned to it. Audited \`rooms.delete\`. ${WHO}`,
        params: RoomIdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteRoom(routeCtx(deps, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/events/:event_id/rooming/rules',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Rooming rules',
        description: `The event’s rules over the defaults (docs/rooming.md "Rules"). ${WHO}`,
        params: EventParams,
        response: { 200: RulesBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => getRules(routeCtx(deps, request)),
  );

  app.put(
    '/events/:event_id/rooming/rules',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Set the rooming rules',
        description: `Replaces the rules; a key left out takes its default. \`designation_choices\` must name registrations of this event (422). Audited \`rooming.rules.update\` (field names). ${WHO}`,
        params: EventParams,
        body: PutRulesRequest,
        response: { 200: RulesBody, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => putRules(routeCtx(deps, request), request.body),
  );

  app.post(
    '/events/:event_id/rooming/plan',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Plan rooms (dry run)',
        description: `Runs the solver (HiGHS mixed-integer program, docs/rooming.md "Solver") and returns the plan: hard rules never broken, roommate requests and room-type preferences maximised, people in rooms kept unless \`keep_existing\` is false, rooming-exempt people skipped. Each person left out and each unmet request carries its reason in words. Writes nothing (not audited). ${WHO}`,
        params: EventParams,
        body: Type.Optional(PlanRequest),
        response: { 200: PlanResponse, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => planRooming(routeCtx(deps, request), request.body ?? {}),
  );

  app.post(
    '/events/:event_id/rooming/apply',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Apply room assignments',
        description: `Writes each person’s \`accommodation.assigned_room\` (the room’s name; \`room_id\` null clears it) through the record writer, one history entry (\`rooming.assign\`) per person whose room changes. A move into a room that then breaks a hard rule needs \`override_reason\`; otherwise 422 with \`problems\` and nothing is written. ${WHO}`,
        params: EventParams,
        body: ApplyRequest,
        response: { 200: ApplyResponse, 422: ApplyProblem, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request) => applyRooming(routeCtx(deps, request), request.body.assignments),
  );
}
