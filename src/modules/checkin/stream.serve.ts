/**
 * Serving the live scan stream (GET /events/{event_id}/scans/stream, stream.routes.ts) to one
 * client: the API route (bearer credential) and the check-in desk's stream (staff pages, session
 * cookie) share this code and one hub per app. Messages and resuming: stream.routes.ts.
 */
import type { FastifyReply } from 'fastify';
import type { CtxFor, Deps } from '../../deps.js';
import { ScanStreamHub } from './scan-stream.js';
import { sseMessage, streamStart } from './stream.service.js';

/** Bytes queued for a slow client before it is disconnected. */
const MAX_BUFFERED = 1024 * 1024;

// Keyed by the database handle, which a request's ctx shares with the deps it was built from.
const hubs = new WeakMap<Deps['db'], { hub: ScanStreamHub; open: Set<FastifyReply> }>();

/** The stream hub of an app built with `deps` (diagnostics and tests). */
export function scanStreamHub(deps: Deps): ScanStreamHub | undefined {
  return hubs.get(deps.db)?.hub;
}

/**
 * Answers `reply` with the event's live scan stream for a caller the gate authorised for
 * `scans.read` (the API route with a bearer credential, or the check-in desk's stream with the
 * session cookie): 422 for a bad `lastEventId` or a context of another event, else a hijacked
 * `text/event-stream` response that stays open until the client goes away or the app closes.
 * `cacheControl`: its Cache-Control (default `no-cache, no-transform`; the staff pages send `no-store`).
 */
export async function serveScanStream(
  ctx: CtxFor<'scans.read'>,
  reply: FastifyReply,
  opts: { scanContextId?: number; lastEventId?: string; cacheControl?: string },
): Promise<void> {
  const state = hubs.get(ctx.db);
  if (!state) throw new Error('The scan stream hub is not set up (scanStreamRoutes not registered)');
  const event = ctx.access.event;
  const cursor = await streamStart(ctx, event.id, opts);
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': opts.cacheControl ?? 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write(': connected\n\n');
  state.open.add(reply);
  const write = (text: string) => {
    if (raw.destroyed || raw.writableEnded) return;
    // A client that stops reading is dropped rather than buffered without bound; it resumes
    // from the database with Last-Event-ID when it reconnects.
    if (raw.writableLength > MAX_BUFFERED) raw.destroy();
    else raw.write(text);
  };
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), ctx.config.scanStreamHeartbeatMs);
  heartbeat.unref();
  const unsubscribe = state.hub.subscribe(event.id, {
    cursor,
    scanContextId: opts.scanContextId,
    send: (entry) => write(sseMessage(entry)),
  });
  raw.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    state.open.delete(reply);
  });
}

/** Creates the app's hub and its set of open streams (scanStreamRoutes ends them on close). */
export function createStreamHub(deps: Deps): { hub: ScanStreamHub; open: Set<FastifyReply> } {
  const state = {
    hub: new ScanStreamHub(deps.db, deps.config.scanStreamPollMs, deps.log),
    open: new Set<FastifyReply>(),
  };
  hubs.set(deps.db, state);
  return state;
}
