/** Check-in routes (docs/decisions.md "Check-in"): scan contexts, scans, bulk replays, scan feed, undo. */

import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import { type Api, sendJsonText } from '../../http/typed.js';
import {
  BulkResult,
  BulkScanRequest,
  ContextBody,
  CreateContextRequest,
  DeleteContextResult,
  MAX_BULK_SCANS,
  ScanContextList,
  ScanList,
  ScanListQuery,
  ScanRequest,
  ScanResult,
  UndoQuery,
  UndoResult,
  UpdateContextRequest,
} from './checkin.schemas.js';
import { listScanContexts } from './contexts.js';
import { createScanContext, deleteScanContext, updateScanContext } from './contexts.manage.js';
import { createScansBulk } from './scan.service.js';
import { createScan } from './scan-batch.js';
import { listScans } from './scan-list.js';
import { undoScans } from './undo.service.js';

const EventParams = Type.Object({ event_id: EventIdParam });
const tags = ['check-in'];
const WHO_READS =
  'Users with event access (global admin, any event role, or a series role on the event’s series). API keys get 403. `{event_id}`: numeric id or event UUID.';
const WHO_MANAGES =
  'Event admins of the event, series owners and organizers of its series, and global admins. API keys get 403. `{event_id}`: numeric id or event UUID.';
const ContextParams = Type.Object({
  event_id: EventIdParam,
  id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Scan context id' }),
});
const CONTEXT_FIELDS =
  '`name` (trimmed, unique within the event, case-insensitive → 409), `checks_in`, `is_travel_pickup` (or its deprecated alias `is_airport`; both sent must agree), `position`, `starts_at`/`ends_at` (ISO 8601 with zone, or null; ends not before starts).';
const WHO_WRITES =
  'Users with event access other than `read_only` (global admin, a series role, or any other event role). API keys get 403. `{event_id}`: numeric id or event UUID.';
const SCAN_RULES = [
  '`participant_id`: a registration id, a person id registered in the event, or the QR payload `muster://checkin/<person id>`; a bare number is looked up as a registration id first, then as a person id. Or `badge_token`: the registration’s NFC badge token. Unknown → 404 `Participant not found for this event`.',
  '`scan_context_id` must belong to the event (else 422); omitted → the event’s only context, or 422 when it has several.',
  'Under a row lock on the registration: a repeated `client_scan_id` for the registration returns the original result with `deduplicated:true` and writes nothing. Otherwise the scan is stored (`scanned_at` = client time or now, `created_at` = server time); `outcome` is `scanned` for the registration’s first scan in that context, else `already_scanned`.',
  'The first scan in a check-in or travel-pickup context sets `travel_picked_up_at` on the inbound travel’s final leg when unset; with the NFC module on, the first check-in ensures a badge token.',
  'Scans of one event that arrive together are recorded together (group commit): one transaction, in registration-id order, so their `created_at` (the transaction’s start) is the same; two requests for one registration keep their arrival order. Each request still gets its own answer (outcome, 404, 422, its caller’s field visibility), exactly as if it had been sent alone.',
].join('\n\n');

export function checkinRoutes(app: Api, deps: Deps): void {
  app.get(
    '/events/:event_id/scan_contexts',
    {
      config: { action: 'scan_contexts.read' },
      schema: {
        tags,
        summary: 'Scan contexts of an event',
        description: `Ordered by position, then id. Times are in the event’s UTC offset. ${WHO_READS}`,
        params: EventParams,
        response: { 200: ScanContextList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => listScanContexts(routeCtx(deps, request)),
  );

  app.post(
    '/events/:event_id/scans',
    {
      config: { action: 'scans.write' },
      schema: {
        tags,
        summary: 'Record a check-in scan',
        description: `${SCAN_RULES}\n\n${WHO_WRITES}`,
        params: EventParams,
        body: ScanRequest,
        response: { 200: ScanResult, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await createScan(routeCtx(deps, request), request.body);
      return sendJsonText(reply, body);
    },
  );

  app.post(
    '/events/:event_id/scans/bulk',
    {
      config: { action: 'scans.write' },
      schema: {
        tags,
        summary: 'Replay offline scans',
        description: `At most ${MAX_BULK_SCANS} items, each with a \`client_scan_id\`, each processed as POST /scans in its own transaction, in order. Per item: \`{client_scan_id, status:"ok", outcome, deduplicated}\` or \`{client_scan_id, status:"error", error}\`. Replays converge: the stored scans are the same set whatever the order.\n\n${WHO_WRITES}`,
        params: EventParams,
        body: BulkScanRequest,
        response: { 200: BulkResult, ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => createScansBulk(routeCtx(deps, request), request.body),
  );

  app.get(
    '/events/:event_id/scans',
    {
      config: { action: 'scans.read' },
      schema: {
        tags,
        summary: 'Scan feed',
        description: `Without \`since\`: the newest ${100} scans by \`scanned_at\`; \`synced_at\` is the high-water mark to start incremental syncs from. With \`since\`: scans with \`created_at > since\`, ordered by (\`created_at\`, \`id\`); \`has_more\` says another page exists; \`synced_at\` is the cursor to pass back verbatim as \`since\`, always a plain ISO 8601 UTC timestamp with microseconds (e.g. \`2026-11-26T06:47:36.258483Z\`): the last scan’s \`created_at\` when \`has_more\`, else a high-water mark that stays below the start of every transaction still writing (a scan committed later, even out of order, is after it). Scans recorded in one transaction (a group-commit batch) share one \`created_at\`, so a page never ends inside one: a page holds at most 500 scans and ends before the first scan of an instant it would split; when its first 500 scans are all one instant, it holds every scan of that instant (it may then exceed 500). Paging this way never skips or repeats a scan. A compound cursor \`<created_at>_<scan id>\` that an earlier version returned is still accepted. Any other \`since\` → 422; a \`scan_context_id\` of another event → 422. ${WHO_READS}`,
        params: EventParams,
        querystring: ScanListQuery,
        response: { 200: ScanList, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => listScans(routeCtx(deps, request), request.query),
  );

  app.delete(
    '/events/:event_id/scans/:id',
    {
      config: { action: 'scans.write' },
      schema: {
        tags,
        summary: 'Undo scans of a participant',
        description: `Deletes the registration’s scans in \`scan_context_id\` (or in every context when omitted); bumps the registration’s \`updated_at\`; audited as \`scans.undo\`. \`{id}\`: any form a scan’s \`participant_id\` takes (URL-encoded): a participant_event_id, else a person id registered in the event; a \`registration_uuid\`, bare or after \`muster://checkin/\` or \`attend://checkin/\`; \`muster://checkin/<person id>\`; \`attend://checkin/<number>\` read like a bare number. Anything else, or nobody in this event → 404 \`Participant not found for this event\`. The mobile app sends \`Content-Type: application/json\` with no body: that is accepted. ${WHO_WRITES}`,
        params: Type.Object({
          event_id: EventIdParam,
          id: Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'participant_event_id, person id, registration_uuid or a QR payload (URL-encoded)',
          }),
        }),
        querystring: UndoQuery,
        response: { 200: UndoResult, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { scan_context_id } = request.query;
      return undoScans(routeCtx(deps, request), { id, scan_context_id });
    },
  );

  app.post(
    '/events/:event_id/scan_contexts',
    {
      config: { action: 'scan_contexts.manage' },
      schema: {
        tags,
        summary: 'Create a scan context',
        description: `${CONTEXT_FIELDS} \`position\` defaults to after the last context. Audited. 201 \`{scan_context}\`. ${WHO_MANAGES}`,
        params: EventParams,
        body: CreateContextRequest,
        response: { 201: ContextBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const body = await createScanContext(routeCtx(deps, request), request.body);
      return reply.status(201).send(body);
    },
  );

  app.patch(
    '/events/:event_id/scan_contexts/:id',
    {
      config: { action: 'scan_contexts.manage' },
      schema: {
        tags,
        summary: 'Update a scan context',
        description: `Any subset of: ${CONTEXT_FIELDS} Turning off \`checks_in\` on the event's last check-in context → 422 \`An event must keep at least one check-in context\`. Unknown context → 404. Audited. ${WHO_MANAGES}`,
        params: ContextParams,
        body: UpdateContextRequest,
        response: { 200: ContextBody, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request) => updateScanContext(routeCtx(deps, request), request.params.id, request.body),
  );

  app.delete(
    '/events/:event_id/scan_contexts/:id',
    {
      config: { action: 'scan_contexts.manage' },
      schema: {
        tags,
        summary: 'Delete a scan context',
        description: `Deletes the context and its scans (\`deleted_scans\` counts them) and clears the event's \`hotel_scan_context_id\` when it named this context. The event's last check-in context cannot be deleted (422 \`An event must keep at least one check-in context\`). Unknown context → 404. Audited. ${WHO_MANAGES}`,
        params: ContextParams,
        response: { 200: DeleteContextResult, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => deleteScanContext(routeCtx(deps, request), request.params.id),
  );
}
