/**
 * Participants read paths (spec "Participants"; docs/decisions.md "Participants API"). Each function takes the request
 * context (the event is already resolved and access checked) and returns a JSON string or object.
 */

import type { Static } from 'typebox';
import { Value } from 'typebox/value';
import { requestWatermark, syncWatermark } from '../../db/watermark.js';
import type { EventCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { normalizeEmail } from '../../lib/identifiers.js';
import { phoneSearchDigits, regionOf } from '../../lib/phone.js';
import { isIsoDateTime } from '../../lib/time.js';
import * as repo from './participants.repo.js';
import { DetailBody } from './participants.schemas.js';

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
 * `{participants, synced_at}` as JSON text in chunks, streamed. The watermark comes with the
 * credential (the route's `syncWatermark`; else one statement); then one statement reads the
 * list's ids and the JSON of its first LIST_BATCH rows (so a delta sync is that statement alone),
 * then the rest one batch of LIST_BATCH rows at a time, each its own statement, so the embedded
 * database's single connection serves other requests between batches. A bad `updated_since` is a
 * 422 before anything is sent (strict ISO 8601). The bytes equal one
 * `{"participants":[…],"synced_at":"…"}` document.
 */
export async function listParticipants(
  ctx: EventCtx,
  input: { updated_since?: string },
): Promise<AsyncIterable<string>> {
  if (input.updated_since !== undefined && !isIsoDateTime(input.updated_since)) {
    throw unprocessable('updated_since must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00.000000Z');
  }
  const { db, access } = ctx;
  const eventId = access.event.id;
  const since = input.updated_since;
  const watermark = await requestWatermark(db, access);
  const head = await repo.listParticipantsHead(db, eventId, access.visibility, watermark, since, LIST_BATCH);
  const ids = head.rest;
  const fetchBatch = (start: number) =>
    repo.participantsJsonBatch(
      db,
      eventId,
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
      fill();
      let first = head.rows.length === 0;
      yield `{"participants":[${head.rows.join(',')}`;
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

/** The phone digit runs `q` may match, for callers who may see phones (lib/phone.ts). */
export function phoneRunsFor(ctx: EventCtx, q: string): string[] {
  if (!ctx.access.visibility.pii) return [];
  return phoneSearchDigits(q, regionOf(ctx.access.event.locationCountry));
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
    phoneRunsFor(ctx, q),
  );
  return `{"results":${results}}`;
}

/** `{participant}` as JSON text; 404 when `id` is not a registration of this event. */
export async function getParticipant(ctx: EventCtx, input: { id: number }): Promise<string> {
  const json = await repo.participantDetailJson(ctx.db, ctx.access.event.id, input.id, ctx.access.visibility);
  if (json === null) throw notFound('Participant not found for this event');
  return `{"participant":${json}}`;
}

/** A ParticipantDetail as its response schema types it (keys the caller may not see are absent). */
export type ParticipantDetailJson = Static<typeof DetailBody>['participant'];

/**
 * The record of a `{"participant": ParticipantDetail}` JSON text (getParticipant's, a PATCH's),
 * checked against the response schema: a serializer that strays from it fails here, not in a page.
 */
export function detailOf(json: string): ParticipantDetailJson {
  const body: unknown = JSON.parse(json);
  if (!Value.Check(DetailBody, body)) throw new Error('The participant detail does not match its schema');
  return body.participant;
}

/** The caller's view of one registration, typed (the staff pages; 404 like getParticipant). */
export async function participantDetail(
  ctx: EventCtx,
  input: { id: number },
): Promise<ParticipantDetailJson> {
  return detailOf(await getParticipant(ctx, input));
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
