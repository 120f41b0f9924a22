/**
 * GET /events/{event_id}/scans/stream: Server-Sent Events of the event's scans and
 * undos, authorised exactly like GET /scans (action `scans.read`; API keys 403). Messages:
 * `event: scan` or `event: scan_undone`, `id:` the feed cursor (a 28-digit decimal number that
 * strictly increases), `data:` the scan as GET /scans shows it (for an undo, each deleted scan).
 * `Last-Event-ID` resumes after that message: missed entries are replayed from the database, then
 * the stream goes live. A `: heartbeat` comment is sent every MUSTER_SCAN_STREAM_HEARTBEAT_MS.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { createStreamHub, serveScanStream } from './stream.serve.js';

const StreamQuery = Type.Object({
  scan_context_id: Type.Optional(Type.Integer({ description: 'Only scans of this context of the event' })),
});
const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ maxLength: 64, description: 'The `id` of the last message received, to resume after it' }),
  ),
});

const DESCRIPTION = [
  'Server-Sent Events (`text/event-stream`) of the event’s scans and undos, for scanners and dashboards.',
  'Each message: `event: scan` (a new scan) or `event: scan_undone` (one message per scan deleted by an undo or with its scan context); `id:` an opaque cursor, a decimal number that strictly increases along the stream; `data:` the scan as GET /events/{event_id}/scans shows it.',
  'Reconnect with `Last-Event-ID` (EventSource does this itself) to receive exactly the messages after that id, replayed from the database, then live ones; without it the stream starts with changes made after connecting. An id that is not one of this stream’s → 422. `scan_context_id` filters to one context (another event’s context → 422).',
  'A `: heartbeat` comment keeps idle connections open (every 15 s by default). Changes committed by any server process appear within about one poll interval (MUSTER_SCAN_STREAM_POLL_MS, 300 ms by default).',
  'Users with event access (global admin, any event role, or a series role on the event’s series). API keys get 403. `{event_id}`: numeric id or event UUID.',
].join('\n\n');

export function scanStreamRoutes(app: Api, deps: Deps): void {
  const { hub, open } = createStreamHub(deps);
  // Open streams would keep app.close() waiting: end them first.
  app.addHook('preClose', async () => {
    hub.close();
    for (const reply of open) reply.raw.end();
  });

  app.get(
    '/events/:event_id/scans/stream',
    {
      config: { action: 'scans.read' },
      schema: {
        tags: ['check-in'],
        summary: 'Live scan feed (Server-Sent Events)',
        description: DESCRIPTION,
        params: Type.Object({ event_id: EventIdParam }),
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: {
            description: 'An event stream',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const last = request.headers['last-event-id'];
      await serveScanStream(routeCtx(deps, request), reply, {
        scanContextId: request.query.scan_context_id,
        lastEventId: typeof last === 'string' ? last : undefined,
      });
    },
  );
}
