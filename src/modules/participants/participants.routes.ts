/** Routes of the participants read endpoints (spec "Participants"; docs/decisions.md "Participants API"). */
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import { type Api, sendJsonText } from '../../http/typed.js';
import {
  DetailBody,
  LookupBody,
  ParticipantList,
  RosterBody,
  SearchResults,
} from './participants.schemas.js';
import * as service from './participants.service.js';

const EventParams = Type.Object({ event_id: EventIdParam });
const errors = errorResponses(401, 403, 404, 422);
const tags = ['participants'];

export function participantRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/participants',
    {
      config: { action: 'participants.list', syncWatermark: true },
      schema: {
        tags,
        summary: 'Full participant records for sync',
        description:
          'Withdrawn and rejected registrations are included (clients merge, never delete). `synced_at` is a high-water mark fixed before the query: pass it back as `updated_since` to receive only registrations changed since (updated_since < updated_at <= synced_at). Not available to API keys.',
        params: EventParams,
        querystring: Type.Object({
          updated_since: Type.Optional(
            Type.String({ description: 'ISO 8601 date-time (e.g. a previous synced_at); non-ISO → 422' }),
          ),
        }),
        response: { 200: ParticipantList, ...errors },
      },
    },
    async (request, reply) => {
      const chunks = await service.listParticipants(routeCtx(deps, request), request.query);
      // A byte stream with a small buffer: the next batch is read only once the client (or the
      // compressor) has taken the previous one, so memory stays bounded on any list size.
      return sendJsonText(reply, Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 }));
    },
  );

  app.get(
    '/events/:event_id/participants/search',
    {
      config: { action: 'participants.search' },
      schema: {
        tags,
        summary: 'Search participants by name, email or id',
        description:
          'Case-insensitive substring on legal/preferred/full name and email; an all-digit term also matches participant_event_id or participant_id exactly. Trimmed; blank → no results; at most 20, best matches first. LIKE wildcards are literal.',
        params: EventParams,
        querystring: Type.Object({
          q: Type.Optional(Type.String({ description: 'Search term (max 200 characters)' })),
        }),
        response: { 200: SearchResults, ...errors },
      },
    },
    async (request, reply) => {
      const query = request.query;
      return sendJsonText(reply, await service.searchParticipants(routeCtx(deps, request), query));
    },
  );

  app.get(
    '/events/:event_id/participants/lookup',
    {
      config: { action: 'participants.lookup' },
      schema: {
        tags,
        summary: 'Is this email registered for the event? (integrations)',
        description:
          'For event API keys of the event, series API keys of its series, and users with participant access. `participant_id` and `status` are null unless registered.',
        params: EventParams,
        querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) }),
        response: { 200: LookupBody, ...errors },
      },
    },
    async (request) => service.lookupParticipant(routeCtx(deps, request), request.query),
  );

  app.get(
    '/events/:event_id/participants/roster',
    {
      config: { action: 'participants.roster' },
      schema: {
        tags,
        summary: 'Roster of active registrations (integrations)',
        description:
          'Withdrawn and rejected registrations are excluded. For API keys of the event/series and users with participant access.',
        params: EventParams,
        response: { 200: RosterBody, ...errors },
      },
    },
    async (request) => service.participantRoster(routeCtx(deps, request)),
  );

  app.get(
    '/events/:event_id/participants/:id',
    {
      config: { action: 'participants.read' },
      schema: {
        tags,
        summary: 'One participant with every section',
        description:
          'Sensitive sections (medical_detail, dietary_detail, accessibility, safeguarding_detail) only for global admins and safeguarding leads; PII omitted for limited callers.',
        params: Type.Object({
          event_id: EventIdParam,
          id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'participant_event_id' }),
        }),
        response: { 200: DetailBody, ...errors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendJsonText(reply, await service.getParticipant(routeCtx(deps, request), { id }));
    },
  );
}
