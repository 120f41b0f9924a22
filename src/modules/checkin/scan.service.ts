/**
 * Scans (docs/checkin.md): recording one scan, the POST /scans response body, and offline bulk
 * replays. Each scan: ONE read resolves its context and registration and reads the verdict's facts
 * (door-facts.ts), the door decides (scan-decide.ts, verdict.ts), then ONE statement writes it
 * (scan-write.ts) under a row lock on the registration, so scans of one registration are serial:
 * the first scan in a context is `scanned`, later ones `already_scanned`, and a repeated
 * `client_scan_id` is answered from the stored row. A refused scan writes nothing (409).
 *
 * POST /scans itself goes through scan-batch.ts, which handles concurrent requests together and
 * falls back to `recordScan()` here for retries. Hot path (bench/README.md "Check-in"): every
 * statement is built once and runs as a prepared statement (db/prepared.ts).
 */
import { sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import type { Tx } from '../../db/client.js';
import { preparedSqlFamily } from '../../db/prepared.js';
import type { EventCtx } from '../../deps.js';
import { ApiError, conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { isoTimestamp } from '../../lib/time.js';
import { participantFrom, participantSelect } from '../participants/participants.serialize.js';
import type { BulkScanInput } from './checkin.schemas.js';
import { CONTEXT_NOT_IN_EVENT, type ContextRow, contextJson } from './contexts.js';
import { readDoorFacts, type ScanFacts } from './door-facts.js';
import {
  COLLECTED_BY_REQUIRED,
  type Decision,
  decide,
  NeedsCollector,
  Refusal,
  type ScanRequest,
  validateScan,
} from './scan-decide.js';
import { type ScanRow, scanJson } from './scan-row.js';
import {
  needsTransaction,
  type ScanResult,
  type ScanWrite,
  writeScan,
  writeScanInTransaction,
} from './scan-write.js';
import { attentionJson, medicalDetail, refusalMessage } from './verdict.js';

export { type ScanRequest, validateScan } from './scan-decide.js';

export const PARTICIPANT_NOT_FOUND = 'Participant not found for this event';
export const CONTEXT_REQUIRED = 'scan_context_id is required when the event has several scan contexts';

/** A recorded (or deduplicated) scan, the context it is stored in, and the facts it was decided on. */
export interface Recorded {
  row: ScanRow;
  context: ContextRow;
  deduplicated: boolean;
  /** The registration's first scanned_at in the context (timestamptz text). */
  firstAt: string;
  facts: ScanFacts;
}

/**
 * The error for a request whose context or participant did not resolve, in the check order: 422
 * for a `scan_context_id` not in the event, 422 when none was sent and the event has several (`n`:
 * the contexts matching the request), 404 for an unknown participant; null when both resolved.
 */
export function resolutionError(
  request: ScanRequest,
  n: number,
  registrationId: number | null,
): ApiError | null {
  if (request.contextId !== undefined && n === 0) return unprocessable(CONTEXT_NOT_IN_EVENT);
  if (n !== 1) return unprocessable(CONTEXT_REQUIRED);
  if (registrationId === null) return notFound(PARTICIPANT_NOT_FOUND);
  return null;
}

/** A resolved, decided scan ready to write, or the error that answers it. */
export type Decided = { write: ScanWrite; facts: ScanFacts } | { error: Promise<ApiError> };

/** The medical message for this caller: specific when it may read sensitive data, else null (generic). */
const medicalFor = (ctx: EventCtx, facts: ScanFacts) =>
  ctx.access.visibility.sensitive ? medicalDetail(facts) : null;

/**
 * Resolution, facts and the door's decision for item `i` of a facts read: a write, or the error
 * (404, 422, 403; 409 for a refusal, with the participant; 422 for an exit without collected_by).
 */
export function decideItem(
  ctx: EventCtx,
  i: number,
  request: ScanRequest,
  read: Awaited<ReturnType<typeof readDoorFacts>>,
  replay: boolean,
): Decided {
  const item = read.resolved.get(i)!;
  const failed = resolutionError(request, item.n, item.reg_id);
  if (failed) return { error: Promise.resolve(failed) };
  const context = read.contexts.get(item.context_id!);
  if (!context) return { error: Promise.resolve(unprocessable(CONTEXT_REQUIRED)) };
  if (!item.facts) return { error: Promise.resolve(notFound(PARTICIPANT_NOT_FOUND)) };
  const facts = item.facts;
  let decision: Decision | Refusal | NeedsCollector;
  try {
    decision = decide(ctx, request, context, facts, replay);
  } catch (error) {
    if (error instanceof ApiError) return { error: Promise.resolve(error) };
    throw error;
  }
  const registrationId = item.reg_id!;
  if (decision instanceof Refusal) return { error: refusalError(ctx, registrationId, decision, facts) };
  if (decision instanceof NeedsCollector) {
    const extra: Record<string, unknown> = {
      attention: attentionJson(decision.codes, medicalFor(ctx, facts), true),
    };
    if (ctx.access.visibility.pii) extra.authorized_pickup_adults = facts.pickup_adults;
    return { error: Promise.resolve(new ApiError(422, COLLECTED_BY_REQUIRED, extra)) };
  }
  const principal = ctx.access.principal;
  const scanner = 'user' in principal ? principal.user.id : null;
  return { write: { i, request, registrationId, context, decision, scanner }, facts };
}

/** 409 `{error, verdict: "refused", attention, participant}` for a refused scan (nothing written). */
async function refusalError(ctx: EventCtx, id: number, r: Refusal, facts: ScanFacts): Promise<ApiError> {
  const participant = (await readParticipants(ctx.db, ctx.access.visibility, [id])).get(id);
  if (participant === undefined) return notFound(PARTICIPANT_NOT_FOUND);
  return conflict(refusalMessage(r.codes, r.refuse), {
    verdict: 'refused',
    attention: attentionJson(r.codes, medicalFor(ctx, facts)),
    participant: JSON.parse(participant),
  });
}

/** The Recorded of a written scan (its stored context may be another one for a repeated client_scan_id). */
export function recordedOf(
  r: ScanResult,
  contexts: Map<number, ContextRow>,
  d: { write: ScanWrite; facts: ScanFacts },
): Recorded {
  if (r === null) throw notFound(PARTICIPANT_NOT_FOUND);
  const context = contexts.get(r.scan.scan_context_id) ?? d.write.context;
  return { row: r.scan, context, deduplicated: r.deduplicated, firstAt: r.first_at, facts: d.facts };
}

/**
 * Records one scan (or answers a repeated client_scan_id from the stored row). `replay`: an
 * offline replay, always written (scan-decide.ts decide()).
 */
export async function recordScan(ctx: EventCtx, request: ScanRequest, replay = false): Promise<Recorded> {
  // A unique violation can happen (two identical requests racing, a badge token collision): the
  // failed statement wrote nothing, and the retry answers from the stored row.
  for (let attempt = 0; ; attempt++) {
    try {
      return await scanOnce(ctx, request, replay);
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function scanOnce(ctx: EventCtx, request: ScanRequest, replay: boolean): Promise<Recorded> {
  const item = { i: 0, contextId: request.contextId, ref: request.ref, clientScanId: request.clientScanId };
  const read = await readDoorFacts(ctx.db, ctx.access.event.id, [item]);
  const decided = decideItem(ctx, 0, request, read, replay);
  if ('error' in decided) throw await decided.error;
  const r = needsTransaction(decided.write)
    ? await writeScanInTransaction(ctx, decided.write)
    : await writeScan(ctx.db, ctx, decided.write);
  return recordedOf(r, read.contexts, decided);
}

/** Participants' JSON by registration id, one prepared statement per visibility; value `registrations`. */
const participantsStatement = preparedSqlFamily<Visibility, { id: number; j: string }>(
  (v) => `checkin_participants_${v.pii ? 'p' : ''}${v.sensitive ? 's' : ''}`,
  (v) =>
    sql`SELECT r.id, ${sql.raw(participantSelect(v))} FROM ${sql.raw(participantFrom(v))}
         WHERE r.id = ANY(${sql.placeholder('registrations')}::int[])`,
);

/**
 * The participant JSON text of scan responses (read after the scans committed), by registration
 * id, for a caller of visibility `v`; a registration deleted meanwhile is missing from the map.
 */
export async function readParticipants(db: Tx, v: Visibility, ids: number[]): Promise<Map<number, string>> {
  const res = await participantsStatement(v)(db).execute({ registrations: ids });
  return new Map(res.rows.map((r) => [Number(r.id), r.j]));
}

/** The POST /scans body (JSON text); the participant JSON is read after the scan committed. */
export async function respond(ctx: EventCtx, recorded: Recorded): Promise<string> {
  const id = recorded.row.registration_id;
  const participant = (await readParticipants(ctx.db, ctx.access.visibility, [id])).get(id);
  // Read after the scan committed: a registration deleted in between answers 404 (not a 500).
  if (participant === undefined) throw notFound(PARTICIPANT_NOT_FOUND);
  return responseBody(ctx, recorded, participant);
}

/** The verdict part of a scan answer, from the stored scan (a repeat answers what was recorded). */
export function verdictJson(ctx: EventCtx, { row, context, facts }: Recorded) {
  const out: Record<string, unknown> = {
    verdict: row.verdict,
    attention: attentionJson(row.attention, medicalFor(ctx, facts), context.tracks_presence),
    forced: row.forced,
  };
  if (row.type === 'exit' && ctx.access.visibility.pii) {
    if (row.attention.includes('not_unaccompanied')) out.authorized_pickup_adults = facts.pickup_adults;
    out.collected_by = row.collected_by;
  }
  return out;
}

/** The POST /scans body (JSON text) from a recorded scan and the participant's JSON text. */
export function responseBody(ctx: EventCtx, recorded: Recorded, participant: string): string {
  const { row, context, deduplicated, firstAt } = recorded;
  const head = {
    success: true,
    ...verdictJson(ctx, recorded),
    outcome: row.outcome,
    first_scan_in_context: row.outcome === 'scanned',
    first_scanned_at: isoTimestamp(firstAt),
    deduplicated,
    scan: scanJson(row),
    scan_context: contextJson(context),
  };
  return `${JSON.stringify(head).slice(0, -1)},"participant":${participant}}`;
}

export interface BulkItemResult {
  client_scan_id: string;
  status: 'ok' | 'error';
  outcome?: 'scanned' | 'already_scanned';
  deduplicated?: boolean;
  error?: string;
  [key: string]: unknown;
}

/**
 * POST /events/{e}/scans/bulk: each item recorded in the order given as an offline replay (always
 * written, reporting its verdict); no participant JSON is read (the results carry none).
 */
export async function createScansBulk(
  ctx: EventCtx,
  input: BulkScanInput,
): Promise<{ results: BulkItemResult[] }> {
  const results: BulkItemResult[] = [];
  for (const item of input.scans) {
    try {
      const recorded = await recordScan(ctx, validateScan(item), true);
      results.push({
        client_scan_id: item.client_scan_id,
        status: 'ok',
        outcome: recorded.row.outcome,
        deduplicated: recorded.deduplicated,
        ...verdictJson(ctx, recorded),
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.push({ client_scan_id: item.client_scan_id, status: 'error', error: error.message });
    }
  }
  return { results };
}
