/**
 * The check-in desk's data routes, for its scripts (web/public/js/desk*.js). The browser holds no
 * bearer token, only the session cookie, so these are the API's check-in routes again with
 * `credential: 'session_cookie'`, the same actions and the same services; posts carry the page's
 * CSRF token in the `X-CSRF-Token` header (the web pages' CSRF check runs before validation). Errors are the API's
 * JSON `{error}` (a missing or dead session → 401 `Sign in to continue`), not HTML pages.
 *
 * - GET  …/checkin/stream[?scan_context_id=]: the live scan stream (Server-Sent Events) exactly as
 *   GET /api/v1/events/{e}/scans/stream (action `scans.read`; `Last-Event-ID` resumes).
 * - GET  …/checkin/search?q=: the API search's matches in the desk's compact shape
 *   (`participants.search`).
 * - GET  …/checkin/participants: every participant in that shape, for the offline cache
 *   (`participants.list`: only callers who may list participants get it).
 * - POST …/checkin/scan `ScanRequest`: POST /api/v1/events/{e}/scans (`scans.write`): one tap or
 *   one QR read while online, with the door's verdict (docs/checkin.md "Door verdicts"): 200 with
 *   `verdict` and `attention`; a refused entry 409 `{error, verdict, attention, participant}` and
 *   nothing stored; `force` + `reason` (roles that may override) stores it, `forced`, audited.
 * - POST …/checkin/scans `{scans: [1–500 BulkScanItem]}`: POST /api/v1/events/{e}/scans/bulk
 *   (`scans.write`): offline replays only (the person already went through: stored, with the
 *   verdict reported; `force` + `reason` carried through); each scan carries a `client_scan_id`,
 *   so a replay of a scan already stored is answered from the stored row and writes nothing.
 * - POST …/checkin/undo `{participant_id, scan_context_id}`: DELETE /api/v1/events/{e}/scans/{id}.
 */
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import { jsonErrorHandler } from '../../http/errors.js';
import { errorResponses } from '../../http/schema-helpers.js';
import { type Api, sendJsonText, typed } from '../../http/typed.js';
import {
  BulkResult,
  ScanRefused,
  ScanRequest,
  ScanResult,
  ScanUnprocessable,
} from '../checkin/checkin.schemas.js';
import { deskRoster, deskSearch } from '../checkin/desk.service.js';
import { createScansBulk } from '../checkin/scan.service.js';
import { createScan } from '../checkin/scan-batch.js';
import { serveScanStream } from '../checkin/stream.serve.js';
import { undoScans } from '../checkin/undo.service.js';
import {
  DeskParams,
  DeskRoster,
  DeskScansBody,
  DeskSearchQuery,
  DeskSearchResult,
  DeskUndoBody,
  DeskUndoResult,
  StreamQuery,
} from './checkin.schemas.js';

const BASE = '/staff/events/:event_id/checkin';
const session = <A extends string>(action: A) => ({ action, credential: 'session_cookie' }) as const;

export function checkinDataRoutes(web: Api, deps: Deps): void {
  web.register(async (scope) => {
    const data = typed(scope);
    data.setErrorHandler(jsonErrorHandler);

    data.get(
      `${BASE}/stream`,
      { config: session('scans.read'), schema: { hide: true, params: DeskParams, querystring: StreamQuery } },
      async (request, reply) => {
        const last = request.headers['last-event-id'];
        await serveScanStream(routeCtx(deps, request), reply, {
          scanContextId: request.query.scan_context_id,
          lastEventId: typeof last === 'string' ? last.slice(0, 64) : undefined,
          cacheControl: 'no-store, no-transform', // like every /staff answer
        });
      },
    );

    data.get(
      `${BASE}/search`,
      {
        config: session('participants.search'),
        schema: {
          hide: true,
          params: DeskParams,
          querystring: DeskSearchQuery,
          response: { 200: DeskSearchResult, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => deskSearch(routeCtx(deps, request), request.query.q),
    );

    data.get(
      `${BASE}/participants`,
      {
        config: session('participants.list'),
        schema: {
          hide: true,
          params: DeskParams,
          response: { 200: DeskRoster, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => deskRoster(routeCtx(deps, request)),
    );

    data.post(
      `${BASE}/scan`,
      {
        config: session('scans.write'),
        schema: {
          hide: true,
          params: DeskParams,
          body: ScanRequest,
          response: {
            200: ScanResult,
            ...errorResponses(400, 401, 403, 404, 413),
            409: ScanRefused,
            422: ScanUnprocessable,
          },
        },
      },
      async (request, reply) => sendJsonText(reply, await createScan(routeCtx(deps, request), request.body)),
    );

    data.post(
      `${BASE}/scans`,
      {
        config: session('scans.write'),
        schema: {
          hide: true,
          params: DeskParams,
          body: DeskScansBody,
          response: { 200: BulkResult, ...errorResponses(400, 401, 403, 404, 413, 422) },
        },
      },
      async (request) => createScansBulk(routeCtx(deps, request), request.body),
    );

    data.post(
      `${BASE}/undo`,
      {
        config: session('scans.write'),
        schema: {
          hide: true,
          params: DeskParams,
          body: DeskUndoBody,
          response: { 200: DeskUndoResult, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { participant_id, scan_context_id } = request.body;
        return undoScans(routeCtx(deps, request), { id: participant_id, scan_context_id });
      },
    );
  });
}
