/**
 * Participants read paths (spec "Participants"; docs/decisions.md "Participants API"). Each function takes the request
 * context (the event is already resolved and access checked) and returns a JSON string or object.
 */
import { syncWatermark } from '../../db/watermark.js';
import type { EventCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { isIsoDateTime } from '../../lib/time.js';
import * as repo from './participants.repo.js';

export const SEARCH_LIMIT = 20;
export const SEARCH_MAX_LENGTH = 200;

/**
 * Rows per statement of a sync list: ≈ 2.5 MB of JSON at 20,000 registrations' row size, so the
 * server holds a few batches at a time (LIST_PREFETCH + 1) and the event loop never waits on one
 * huge string.
 */
export const LIST_BATCH = 500;

/**
 * Batches of a sync list read ahead of the one being sent (each its own statement; on the embedded
 * database they queue on its one connection). Measured in bench/ (full-sync scenario).
 */
export const LIST_PREFETCH = 2;

/**
 * `{participants, synced_at}` as JSON text in chunks, streamed: the watermark and the ids are read
 * first (a bad `updated_since` is a 422 before anything is sent: it must be strict ISO 8601), then
 * the participants' JSON one batch of LIST_BATCH rows at a time, each its own statement, so the
 * embedded database's single connection serves other requests between batches. The bytes equal
 * one `{"participants":[…],"synced_at":"…"}` document.
 */
export async function listParticipants(
  ctx: EventCtx,
  input: { updated_since?: string },
): Promise<AsyncIterable<string>> {
  if (input.updated_since !== undefined && !isIsoDateTime(input.updated_since)) {
    throw unprocessable('updated_since must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00.000000Z');
  }
  const event = ctx.access.event;
  const since = input.updated_since;
  const watermark = await syncWatermark(ctx.db);
  const ids = await repo.listParticipantIds(ctx.db, event.id, watermark, since);
  const { db, access } = ctx;
  const fetchBatch = (start: number) =>
    repo.participantsJsonBatch(
      db,
      event.id,
      access.visibility,
      ids.slice(start, start + LIST_BATCH),
      watermark,
      since,
    );
  return (async function* () {
    // Up to LIST_PREFETCH batches are in flight while one is written out, so the database builds
    // the next rows (on PostgreSQL, on another connection and core) while Node sends these.
    const inFlight: Promise<string[]>[] = [];
    let next = 0;
    const fill = () => {
      while (inFlight.length < LIST_PREFETCH && next < ids.length) {
        const batch = fetchBatch(next);
        batch.catch(() => {}); // awaited below; a client gone mid-list must not leave it unhandled
        inFlight.push(batch);
        next += LIST_BATCH;
      }
    };
    try {
      yield '{"participants":[';
      let first = true;
      fill();
      while (inFlight.length > 0) {
        const rows = await inFlight.shift()!;
        fill();
        if (rows.length === 0) continue;
        yield (first ? '' : ',') + rows.join(',');
        first = false;
      }
      yield `],"synced_at":"${watermark}"}`;
    } finally {
      await Promise.allSettled(inFlight);
    }
  })();
}

/** `{results}` as JSON text: at most 20 matches; blank term → no results; > 200 chars → 422. */
export async function searchParticipants(ctx: EventCtx, input: { q?: string }): Promise<string> {
  const q = (input.q ?? '').trim();
  if (q.length > SEARCH_MAX_LENGTH) throw unprocessable(`q must be at most ${SEARCH_MAX_LENGTH} characters`);
  if (q === '') return '{"results":[]}';
  const results = await repo.searchParticipantsJson(
    ctx.db,
    ctx.access.event.id,
    ctx.access.visibility,
    q,
    SEARCH_LIMIT,
  );
  return `{"results":${results}}`;
}

/** `{participant}` as JSON text; 404 when `id` is not a registration of this event. */
export async function getParticipant(ctx: EventCtx, input: { id: number }): Promise<string> {
  const json = await repo.participantDetailJson(ctx.db, ctx.access.event.id, input.id, ctx.access.visibility);
  if (json === null) throw notFound('Participant not found for this event');
  return `{"participant":${json}}`;
}

/** `{email, registered, participant_id, status}` for integrations (read-only; blank email → 422). */
export async function lookupParticipant(ctx: EventCtx, input: { email?: string }) {
  const email = normalizeEmail(input.email ?? '');
  if (email === '') throw unprocessable('email is required');
  const row = await repo.lookupByEmail(ctx.db, ctx.access.event.id, email);
  return {
    email,
    registered: row !== null,
    participant_id: row?.participant_id ?? null,
    status: row?.status ?? null,
  };
}

/**
 * `{participants:[{email, first_name, last_name, chat_user_id, slack_user_id, status}], synced_at}`;
 * withdrawn/rejected excluded. `slack_user_id` always equals `chat_user_id` (docs/decisions.md "Participants API").
 */
export async function participantRoster(ctx: EventCtx) {
  const event = ctx.access.event;
  const synced_at = await syncWatermark(ctx.db);
  const participants = await repo.rosterRows(ctx.db, event.id);
  return { participants, synced_at };
}
