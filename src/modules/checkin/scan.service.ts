/**
 * Scans (docs/decisions.md "Check-in"): recording one scan, the POST /scans response body, and offline bulk
 * replays. A scan holds a row lock on its registration (muster_scan(),
 * drizzle/0005_scan_function.sql), so scans of one registration are serial: the first scan in a
 * context is `scanned`, later ones `already_scanned`, and a repeated `client_scan_id` is answered
 * from the stored row.
 *
 * POST /scans itself goes through scan-batch.ts, which records concurrent requests together and
 * falls back to `recordScan()` here (one scan, one statement) for travel pickups and retries.
 * Hot path (bench/README.md "Check-in"): every statement here is built once per variant and runs
 * as a prepared statement (db/prepared.ts).
 */
import { randomBytes } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import type { Tx } from '../../db/client.js';
import { preparedSql, preparedSqlFamily } from '../../db/prepared.js';
import type { EventCtx } from '../../deps.js';
import { ApiError, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { isIsoDateTime, isoTimestamp } from '../../lib/time.js';
import { participantFrom, participantSelect } from '../participants/participants.serialize.js';
import { enqueueStaffPush } from '../push/push.service.js';
import type { BulkScanInput, ScanInput } from './checkin.schemas.js';
import {
  CONTEXT_COLUMNS,
  CONTEXT_NOT_IN_EVENT,
  type ContextRow,
  contextJson,
  contextRows,
  MAX_INT,
} from './contexts.js';
import { type ParticipantRef, participantRef, registrationIdSql } from './participant-ref.js';
import { type ScanRow, scanJson } from './scan-row.js';

export const PARTICIPANT_NOT_FOUND = 'Participant not found for this event';
export const CONTEXT_REQUIRED = 'scan_context_id is required when the event has several scan contexts';

/** A recorded (or deduplicated) scan and the context it is stored in. */
export interface Recorded {
  row: ScanRow;
  context: ContextRow;
  deduplicated: boolean;
  /** The registration's first scanned_at in the context (timestamptz text). */
  firstAt: string;
}

/** A validated scan request (validateScan()). */
export interface ScanRequest {
  ref: ParticipantRef;
  contextId: number | undefined;
  source: 'qr' | 'nfc' | 'manual';
  clientScanId: string | null;
  scannedAt: string | null;
}

/** Validation that needs no database (422). */
export function validateScan(input: ScanInput): ScanRequest {
  if (input.participant_id === undefined && input.badge_token === undefined) {
    throw unprocessable('participant_id or badge_token is required');
  }
  if (input.scanned_at !== undefined && !isIsoDateTime(input.scanned_at)) {
    throw unprocessable('scanned_at must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00.000Z');
  }
  const id = input.scan_context_id;
  if (id !== undefined && (id < 1 || id > MAX_INT)) throw unprocessable(CONTEXT_NOT_IN_EVENT);
  return {
    ref: participantRef(input),
    contextId: id,
    source: input.source ?? 'qr',
    clientScanId: input.client_scan_id ?? null,
    scannedAt: input.scanned_at ?? null,
  };
}

/** Records one scan (or answers a repeated client_scan_id from the stored row). */
export async function recordScan(ctx: EventCtx, request: ScanRequest): Promise<Recorded> {
  // muster_scan() holds a row lock on the registration, so scans of one registration are serial;
  // a unique violation can still happen (two identical requests racing, a badge token collision):
  // the failed statement wrote nothing, and the retry answers from the stored row.
  for (let attempt = 0; ; attempt++) {
    try {
      return await scanOnce(ctx, request);
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
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

/** What muster_scan() returns (drizzle/0005_scan_function.sql), or null: registration not in the event. */
export type ScanResult = { deduplicated: boolean; picked: number; first_at: string; scan: ScanRow } | null;

const p = (name: string) => sql.placeholder(name);

/** The muster_scan() call; values from scanValues(), the registration and context as SQL. */
function scanCall(reg: SQL, context: SQL, checksIn: SQL, pickup: SQL): SQL {
  return sql`muster_scan(${p('event')}::int, ${reg}, ${context}, ${checksIn}, ${pickup},
      ${p('scanner')}::int, ${p('source')}::text, ${p('client_scan_id')}::text,
      ${p('scanned_at')}::timestamptz, ${p('token')}::text)::text`;
}

/** The per-scan values of muster_scan(): event, scanner, source, client_scan_id, scanned_at, token. */
export function scanValues(ctx: EventCtx, request: ScanRequest): Record<string, unknown> {
  const principal = ctx.access.principal;
  return {
    event: ctx.access.event.id,
    scanner: 'user' in principal ? principal.user.id : null,
    source: request.source,
    client_scan_id: request.clientScanId,
    scanned_at: request.scannedAt,
    // 128 random bits, stored only if this is a first check-in that needs a badge token (NFC on).
    token: randomBytes(16).toString('base64url'),
  };
}

type ScanStatementRow = ContextRow & { reg_id: number | null; n: number; r: string | null };

/**
 * The scan statement for a request shape: with or without `scan_context_id`, and by the kind of
 * participant reference. One autocommit statement resolves the context (422s) and the
 * registration (404) and, when both are found and the context is not a travel pickup point, calls
 * muster_scan(). Values: `event`, `context` (when given), `ref`, and those of scanValues().
 */
function buildScanSql(withContext: boolean, kind: ParticipantRef['kind']): SQL {
  return sql`WITH c AS (SELECT ${CONTEXT_COLUMNS} FROM scan_contexts sc JOIN events e ON e.id = sc.event_id
                  WHERE sc.event_id = ${p('event')}${withContext ? sql` AND sc.id = ${p('context')}` : sql``}),
             q AS (SELECT ${registrationIdSql(kind, p('event'), p('ref'))} AS reg_id, (SELECT count(*)::int FROM c) AS n)
        SELECT q.reg_id, q.n, c.*,
               CASE WHEN q.n = 1 AND q.reg_id IS NOT NULL AND NOT c.is_travel_pickup
                    THEN ${scanCall(sql`q.reg_id`, sql`c.id`, sql`c.checks_in`, sql`c.is_travel_pickup`)} END AS r
          FROM q LEFT JOIN c ON true`;
}

type ScanVariant = { withContext: boolean; kind: ParticipantRef['kind'] };
const scanStatement = preparedSqlFamily<ScanVariant, ScanStatementRow>(
  (v) => `scan_${v.withContext ? 'context' : 'default'}_${v.kind}`,
  (v) => buildScanSql(v.withContext, v.kind),
);

/** muster_scan() for a travel-pickup context, run inside the caller's transaction. */
const pickupScan = preparedSql<{ r: string | null }>(
  'scan_pickup',
  () =>
    sql`SELECT ${scanCall(sql`${p('reg')}::int`, sql`${p('context')}::int`, sql`${p('checks_in')}::boolean`, sql`true`)} AS r`,
);

/**
 * One scan: the scan statement, in ONE round trip for any context but a travel pickup point,
 * which instead runs muster_scan() in a transaction to enqueue the staff push in it when a
 * traveller was collected.
 */
async function scanOnce(ctx: EventCtx, request: ScanRequest): Promise<Recorded> {
  const event = ctx.access.event;
  const values = scanValues(ctx, request);
  const variant = { withContext: request.contextId !== undefined, kind: request.ref.kind };
  const res = await scanStatement(variant)(ctx.db).execute({
    ...values,
    context: request.contextId,
    ref: request.ref.value,
  });
  const context = res.rows[0]!;
  const refused = resolutionError(request, context.n, context.reg_id);
  if (refused) throw refused;
  const registrationId = context.reg_id!;
  const result = !context.is_travel_pickup
    ? (JSON.parse(context.r ?? 'null') as ScanResult)
    : await ctx.db.transaction(async (tx) => {
        const out = await pickupScan(tx).execute({
          ...values,
          reg: registrationId,
          context: context.id,
          checks_in: context.checks_in,
        });
        const r = JSON.parse(out.rows[0]!.r ?? 'null') as ScanResult;
        // A pickup scan that collects a traveller tells the event's other staff devices (ids only).
        if (r !== null && r.picked > 0) {
          await enqueueStaffPush(ctx, tx, {
            eventId: event.id,
            kind: 'travel_pickup',
            title: 'Traveller collected',
            body: `An inbound traveller was collected at ${context.name}.`,
            data: {
              participant_event_id: registrationId,
              scan_context_id: context.id,
              scan_id: Number(r.scan.id),
            },
            excludeUserIds: values.scanner === null ? [] : [values.scanner as number],
          });
        }
        return r;
      });
  if (result === null) throw notFound(PARTICIPANT_NOT_FOUND);
  const row = result.scan;
  // A repeated client_scan_id answers with the stored scan, whose context may be another one.
  const stored =
    row.scan_context_id === context.id
      ? context
      : (await contextRows(ctx.db, event.id, sql` AND sc.id = ${row.scan_context_id}`))[0]!;
  return { row, context: stored, deduplicated: result.deduplicated, firstAt: result.first_at };
}

/** Participants' JSON by registration id, one prepared statement per visibility; value `registrations`. */
const participantsStatement = preparedSqlFamily<Visibility, { id: number; j: string }>(
  (v) => `checkin_participants_${v.pii ? 'p' : ''}${v.sensitive ? 's' : ''}`,
  (v) =>
    sql`SELECT r.id, ${sql.raw(participantSelect(v))} FROM ${sql.raw(participantFrom(v))}
         WHERE r.id = ANY(${p('registrations')}::int[])`,
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
  return responseBody(recorded, participant);
}

/** The POST /scans body (JSON text) from a recorded scan and the participant's JSON text. */
export function responseBody({ row, context, deduplicated, firstAt }: Recorded, participant: string): string {
  const head = {
    success: true,
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
}

/**
 * POST /events/{e}/scans/bulk: each item recorded as POST /scans records it (its own statement or
 * transaction), in the order given; no participant JSON is read (the results carry none).
 */
export async function createScansBulk(
  ctx: EventCtx,
  input: BulkScanInput,
): Promise<{ results: BulkItemResult[] }> {
  const results: BulkItemResult[] = [];
  for (const item of input.scans) {
    try {
      const recorded = await recordScan(ctx, validateScan(item));
      results.push({
        client_scan_id: item.client_scan_id,
        status: 'ok',
        outcome: recorded.row.outcome,
        deduplicated: recorded.deduplicated,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.push({ client_scan_id: item.client_scan_id, status: 'error', error: error.message });
    }
  }
  return { results };
}
