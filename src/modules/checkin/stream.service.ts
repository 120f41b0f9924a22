/**
 * Where a live scan stream starts (GET /events/{event_id}/scans/stream) and how a feed entry is
 * written on the wire. The route only parses, calls `streamStart` and hands the cursor to the hub.
 */
import type { Ctx } from '../../deps.js';
import { unprocessable } from '../../lib/errors.js';
import { checkContextFilter } from './contexts.js';
import { type FeedEntry, headCursor, parseCursor } from './scan-feed.repo.js';

const BAD_LAST_EVENT_ID = 'Last-Event-ID is not an id of this stream';

/**
 * The cursor to stream from: after `lastEventId` when given (422 when it is not one of this
 * stream's ids), else the feed's current head (only changes made after connecting). A
 * `scanContextId` of another event → 422.
 */
export async function streamStart(
  ctx: Ctx,
  eventId: number,
  opts: { scanContextId?: number; lastEventId?: string },
): Promise<string> {
  await checkContextFilter(ctx.db, eventId, opts.scanContextId);
  const last = opts.lastEventId;
  if (last !== undefined && last !== '') {
    if (!parseCursor(last)) throw unprocessable(BAD_LAST_EVENT_ID);
    return last.trim();
  }
  return headCursor(ctx.db);
}

/** SSE text of one feed entry (payload is single-line JSON). */
export function sseMessage(entry: FeedEntry): string {
  return `event: ${entry.kind}\nid: ${entry.cursor}\ndata: ${entry.payload}\n\n`;
}
