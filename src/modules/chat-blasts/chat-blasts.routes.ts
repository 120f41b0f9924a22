/** Chat blast routes (spec "Chat blasts", docs/decisions.md "Messaging"). */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import {
  ChatBlastBody,
  ChatBlastList,
  ChatBlastListQuery,
  CreateChatBlastRequest,
} from './chat-blasts.schemas.js';
import * as service from './chat-blasts.service.js';

const tags = ['chat blasts'];
const EventParams = Type.Object({ event_id: EventIdParam });
const BlastParams = Type.Object({
  event_id: EventIdParam,
  id: Type.String({ minLength: 1, maxLength: 40, description: 'Chat blast id (integer)' }),
});
const WHO =
  'Users with event access other than `read_only`: global admins, series owners/organizers of the event’s series, and event roles other than `read_only` (a `read_only`-only user gets 403). API keys get 403. `{event_id}`: numeric id or event UUID.';
const SHAPE =
  '`status`: `pending` → `in_progress` → `completed` (`failed` when every recipient failed). Counts are derived from the recipient rows: `recipient_count` = recipients snapshotted at creation, `sent_count` + `failed_count` reach it when delivery ends.';

export function chatBlastRoutes(app: Api, deps: Deps): void {
  app.post(
    '/events/:event_id/chat_blasts',
    {
      config: { action: 'chat_blasts.write' },
      schema: {
        tags,
        summary: 'Broadcast a chat message to the event’s participants',
        description: `Recipients: every registration with status \`complete\` whose person has a linked chat account (\`chat_user_id\`), snapshotted now (one message per chat user). \`message\` is trimmed and must have 1..4000 characters (blank → 422 \`Message cannot be blank\`; longer → 422 \`Message must be at most 4000 characters\`). No chat provider configured (MUSTER_CHAT_BOT_TOKEN) → 503 \`Chat provider is not configured\`. No recipients → 422 \`No participants with linked chat accounts\`. The blast is created \`pending\` and its delivery enqueued in the same transaction; 201 \`{chat_blast}\`. ${SHAPE} ${WHO}`,
        params: EventParams,
        body: CreateChatBlastRequest,
        response: { 201: ChatBlastBody, ...errorResponses(400, 401, 403, 404, 413, 422, 503) },
      },
    },
    async (request, reply) => {
      const body = await service.createBlast(routeCtx(deps, request), request.body);
      return reply.status(201).send(body);
    },
  );

  app.get(
    '/events/:event_id/chat_blasts',
    {
      config: { action: 'chat_blasts.read' },
      schema: {
        tags,
        summary: 'Chat blasts of an event',
        description: `Newest first (\`created_at\`, then id); \`limit\` 1..200 (default 50), \`offset\` ≥ 0. ${SHAPE} ${WHO}`,
        params: EventParams,
        querystring: ChatBlastListQuery,
        response: { 200: ChatBlastList, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => service.listBlasts(routeCtx(deps, request), request.query),
  );

  app.get(
    '/events/:event_id/chat_blasts/:id',
    {
      config: { action: 'chat_blasts.read' },
      schema: {
        tags,
        summary: 'One chat blast with its delivery counts',
        description: `404 \`Chat blast not found\` for an unknown id or a blast of another event. ${SHAPE} ${WHO}`,
        params: BlastParams,
        response: { 200: ChatBlastBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.getBlast(routeCtx(deps, request), request.params.id),
  );
}
