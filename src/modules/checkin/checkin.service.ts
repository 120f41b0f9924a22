/**
 * Check-in (contract §5, §9): scan contexts, scans (single and offline bulk replays), the scan
 * feed and undo. A scan runs in one transaction holding a row lock on the registration, so two
 * scans of one registration are serial: the first scan in a context is `scanned`, later ones
 * `already_scanned`, and a repeated `client_scan_id` is answered from the stored row.
 */
import { randomBytes } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import type { EventRow } from '../../access/resolve.js';
import type { Tx } from '../../db/client.js';
import type { Ctx } from '../../deps.js';
import { ApiError, conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { isIsoDateTime, isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import { participantFrom, participantSelect } from '../participants/participants.serialize.js';
import { enqueueStaffPush } from '../push/push.service.js';
import type {
  BulkScanInput,
  CreateContextInput,
  ScanContextJson,
  ScanInput,
  ScanJson,
  UpdateContextInput,
} from './checkin.schemas.js';
import { executeNamed } from './prepared.js';
import { appendFeed } from './scan-feed.repo.js';

export const PARTICIPANT_NOT_FOUND = 'Participant not found for this event';
export const CONTEXT_REQUIRED = 'scan_context_id is required when the event has several scan contexts';
export const CONTEXT_NOT_IN_EVENT = 'scan_context_id does not belong to this event';
const QR_PREFIX = 'muster://checkin/';
const INT = /^[0-9]{1,9}$/;
const MAX_INT = 2147483647;

function eventOf(ctx: Ctx): EventRow {
  if (!ctx.access.event) throw new Error('check-in service called without a resolved event');
  return ctx.access.event;
}

function scannerOf(ctx: Ctx): { id: number; name: string } | null {
  const p = ctx.access.principal;
  return 'user' in p ? { id: p.user.id, name: p.user.name } : null;
}

// ---------------------------------------------------------------------------------------------
// Scan contexts

type ContextRow = {
  id: number;
  name: string;
  checks_in: boolean;
  is_travel_pickup: boolean;
  position: number;
  starts_local: string | null;
  starts_off: number | null;
  ends_local: string | null;
  ends_off: number | null;
};

const CONTEXT_COLUMNS = sql.raw(`sc.id, sc.name, sc.checks_in, sc.is_travel_pickup, sc.position,
  to_char(sc.starts_at AT TIME ZONE e.timezone, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS starts_local,
  extract(epoch FROM (sc.starts_at AT TIME ZONE e.timezone) - (sc.starts_at AT TIME ZONE 'UTC'))::int AS starts_off,
  to_char(sc.ends_at AT TIME ZONE e.timezone, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS ends_local,
  extract(epoch FROM (sc.ends_at AT TIME ZONE e.timezone) - (sc.ends_at AT TIME ZONE 'UTC'))::int AS ends_off`);

/** Local wall time plus the event's UTC offset at that instant, e.g. `2026-07-10T09:00:00.000000+01:00`. */
function withOffset(local: string | null, offsetSeconds: number | null): string | null {
  if (local === null) return null;
  const off = offsetSeconds ?? 0;
  if (off === 0) return `${local}Z`;
  const abs = Math.abs(off);
  const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  return `${local}${off < 0 ? '-' : '+'}${hh}:${mm}`;
}

function contextJson(row: ContextRow): ScanContextJson {
  return {
    id: row.id,
    name: row.name,
    checks_in: row.checks_in,
    is_travel_pickup: row.is_travel_pickup,
    is_airport: row.is_travel_pickup,
    position: row.position,
    starts_at: withOffset(row.starts_local, row.starts_off),
    ends_at: withOffset(row.ends_local, row.ends_off),
  };
}

async function contextRows(db: Tx, eventId: number, where: SQL = sql``): Promise<ContextRow[]> {
  const res = await db.execute<ContextRow>(
    sql`SELECT ${CONTEXT_COLUMNS} FROM scan_contexts sc JOIN events e ON e.id = sc.event_id
         WHERE sc.event_id = ${eventId}${where} ORDER BY sc.position, sc.id`,
  );
  return res.rows;
}

export async function listScanContexts(ctx: Ctx): Promise<{ scan_contexts: ScanContextJson[] }> {
  const rows = await contextRows(ctx.db, eventOf(ctx).id);
  return { scan_contexts: rows.map(contextJson) };
}

/** A `scan_context_id` filter must name a context of the event (422), when given. */
export async function checkContextFilter(db: Tx, eventId: number, id: number | undefined): Promise<void> {
  if (id === undefined) return;
  const [row] = id > MAX_INT || id < 1 ? [] : await contextRows(db, eventId, sql` AND sc.id = ${id}`);
  if (!row) throw unprocessable(CONTEXT_NOT_IN_EVENT);
}

// ---------------------------------------------------------------------------------------------
// Participant references (contract §9)

/** SQL scalar: the registration id named by `participant_id` or `badge_token` (contract §9), or NULL. */
function registrationRef(
  eventId: number,
  ref: { participant_id?: number | string; badge_token?: string },
): SQL {
  const byReg = (id: number) =>
    sql`(SELECT id FROM registrations WHERE event_id = ${eventId} AND id = ${id})`;
  const byPer = (id: number) =>
    sql`(SELECT id FROM registrations WHERE event_id = ${eventId} AND person_id = ${id} ORDER BY id LIMIT 1)`;
  if (ref.participant_id !== undefined) {
    const raw =
      typeof ref.participant_id === 'number' ? String(ref.participant_id) : ref.participant_id.trim();
    if (raw.startsWith(QR_PREFIX)) {
      const id = raw.slice(QR_PREFIX.length);
      return INT.test(id) ? byPer(Number(id)) : sql`NULL::int`;
    }
    return INT.test(raw) ? sql`COALESCE(${byReg(Number(raw))}, ${byPer(Number(raw))})` : sql`NULL::int`;
  }
  if (ref.badge_token !== undefined) {
    return sql`(SELECT id FROM registrations WHERE event_id = ${eventId} AND nfc_badge_token = ${ref.badge_token})`;
  }
  return sql`NULL::int`;
}

async function byRegistration(db: Tx, eventId: number, id: number): Promise<number | undefined> {
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM registrations WHERE event_id = ${eventId} AND id = ${id}`,
  );
  return res.rows[0]?.id;
}

async function byPerson(db: Tx, eventId: number, personId: number): Promise<number | undefined> {
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM registrations WHERE event_id = ${eventId} AND person_id = ${personId}`,
  );
  return res.rows[0]?.id;
}

/** Registration id named by an undo path segment (registration id first, then person id), or 404. */
export async function resolveUndoTarget(db: Tx, eventId: number, id: number): Promise<number> {
  if (id < 1 || id > MAX_INT) throw notFound(PARTICIPANT_NOT_FOUND);
  const found = (await byRegistration(db, eventId, id)) ?? (await byPerson(db, eventId, id));
  if (found === undefined) throw notFound(PARTICIPANT_NOT_FOUND);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Scans

export type ScanRow = {
  id: number;
  registration_id: number;
  scan_context_id: number;
  source: 'qr' | 'nfc' | 'manual';
  client_scan_id: string | null;
  outcome: 'scanned' | 'already_scanned';
  scanned_at: string;
  created_at: string;
  scanner_id: number | null;
  scanner_name: string | null;
};

export const SCAN_COLUMNS =
  sql.raw(`s.id::int AS id, s.registration_id, s.scan_context_id, s.source, s.client_scan_id,
  s.outcome, s.scanned_at::text AS scanned_at, s.created_at::text AS created_at, u.id AS scanner_id, u.name AS scanner_name`);
export const SCAN_FROM = sql.raw('scans s LEFT JOIN users u ON u.id = s.scanner_user_id');

export function scanJson(row: ScanRow): ScanJson {
  return {
    id: Number(row.id),
    participant_event_id: row.registration_id,
    scan_context_id: row.scan_context_id,
    source: row.source,
    client_scan_id: row.client_scan_id,
    scanned_at: isoTimestamp(row.scanned_at)!,
    created_at: isoTimestamp(row.created_at)!,
    scanner: row.scanner_id === null ? null : { id: row.scanner_id, name: row.scanner_name ?? '' },
  };
}

export interface ScanOutcome {
  outcome: 'scanned' | 'already_scanned';
  deduplicated: boolean;
  /** Response body (JSON text). */
  json: string;
}

interface ScanRequest {
  input: ScanInput;
  contextId: number | undefined;
  source: 'qr' | 'nfc' | 'manual';
  clientScanId: string | null;
  scannedAt: string | null;
}

/** Validation that needs no database (422). */
function validateScan(input: ScanInput): ScanRequest {
  if (input.participant_id === undefined && input.badge_token === undefined) {
    throw unprocessable('participant_id or badge_token is required');
  }
  if (input.scanned_at !== undefined && !isIsoDateTime(input.scanned_at)) {
    throw unprocessable('scanned_at must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00.000Z');
  }
  const id = input.scan_context_id;
  if (id !== undefined && (id < 1 || id > MAX_INT)) throw unprocessable(CONTEXT_NOT_IN_EVENT);
  return {
    input,
    contextId: id,
    source: input.source ?? 'qr',
    clientScanId: input.client_scan_id ?? null,
    scannedAt: input.scanned_at ?? null,
  };
}

/** Records one scan (or answers a repeated client_scan_id from the stored row). */
async function recordScan(ctx: Ctx, request: ScanRequest): Promise<ScanOutcome> {
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

/** What muster_scan() returns (drizzle/0005_scan_function.sql), or null: registration not in the event. */
type ScanResult = { deduplicated: boolean; picked: number; first_at: string; scan: ScanRow } | null;

/** The muster_scan() call for a resolved registration and context (SQL values or columns). */
function scanCall(ctx: Ctx, request: ScanRequest, reg: SQL, context: SQL, checksIn: SQL, pickup: SQL): SQL {
  const scanner = scannerOf(ctx);
  // 128 random bits, stored only if this is a first check-in that needs a badge token (NFC on).
  const token = randomBytes(16).toString('base64url');
  return sql`muster_scan(${eventOf(ctx).id}::int, ${reg}, ${context}, ${checksIn}, ${pickup},
      ${scanner?.id ?? null}::int, ${request.source}::text, ${request.clientScanId}::text,
      ${request.scannedAt}::timestamptz, ${token}::text)::text`;
}

/**
 * One scan in ONE round trip (bench/README.md "Check-in"): a single autocommit statement resolves
 * the context (422s) and the registration (404), and when both are found calls muster_scan(), which
 * locks the registration, reads the state under the lock and inserts the scan (+ travel pickup,
 * + NFC badge token) and its live-feed entry. A travel-pickup context instead runs muster_scan() in
 * a transaction, to enqueue the staff push in it when a traveller was collected. The participant
 * JSON of the response is read after the commit (it shows the scan).
 */
async function scanOnce(ctx: Ctx, request: ScanRequest): Promise<ScanOutcome> {
  const event = eventOf(ctx);
  const id = request.contextId;
  const res = await ctx.db.execute<ContextRow & { reg_id: number | null; n: number; r: string | null }>(
    sql`WITH c AS (SELECT ${CONTEXT_COLUMNS} FROM scan_contexts sc JOIN events e ON e.id = sc.event_id
                    WHERE sc.event_id = ${event.id}${id === undefined ? sql`` : sql` AND sc.id = ${id}`}),
             p AS (SELECT ${registrationRef(event.id, request.input)} AS reg_id, (SELECT count(*)::int FROM c) AS n)
        SELECT p.reg_id, p.n, c.*,
               CASE WHEN p.n = 1 AND p.reg_id IS NOT NULL AND NOT c.is_travel_pickup
                    THEN ${scanCall(ctx, request, sql`p.reg_id`, sql`c.id`, sql`c.checks_in`, sql`c.is_travel_pickup`)} END AS r
          FROM p LEFT JOIN c ON true`,
  );
  const first = res.rows[0]!;
  if (id !== undefined && first.n === 0) throw unprocessable(CONTEXT_NOT_IN_EVENT);
  if (first.n !== 1) throw unprocessable(CONTEXT_REQUIRED);
  const context = first;
  const registrationId = first.reg_id;
  if (registrationId === null) throw notFound(PARTICIPANT_NOT_FOUND);
  const result = !context.is_travel_pickup
    ? (JSON.parse(first.r ?? 'null') as ScanResult)
    : await ctx.db.transaction(async (tx) => {
        const call = scanCall(
          ctx,
          request,
          sql`${registrationId}::int`,
          sql`${context.id}::int`,
          sql`${context.checks_in}::boolean`,
          sql`true`,
        );
        const out = await tx.execute<{ r: string | null }>(sql`SELECT ${call} AS r`);
        const r = JSON.parse(out.rows[0]!.r ?? 'null') as ScanResult;
        // A pickup scan that collects a traveller tells the event's other staff devices (ids only).
        if (r !== null && r.picked > 0) {
          const scanner = scannerOf(ctx);
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
            excludeUserIds: scanner ? [scanner.id] : [],
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
  return respond(ctx, row, stored, result.deduplicated, result.first_at);
}

async function respond(
  ctx: Ctx,
  row: ScanRow,
  context: ContextRow,
  deduplicated: boolean,
  firstAt: string,
): Promise<ScanOutcome> {
  const v: Visibility = ctx.access.visibility;
  const name = `checkin_participant_${v.pii ? 'p' : ''}${v.sensitive ? 's' : ''}`;
  const res = await executeNamed<{ j: string }>(
    ctx,
    ctx.db,
    name,
    sql`SELECT ${sql.raw(participantSelect(v))} FROM ${sql.raw(participantFrom(v))} WHERE r.id = ${row.registration_id}`,
  );
  // Read after the scan committed: a registration deleted in between answers 404 (not a 500).
  const participant = res.rows[0];
  if (!participant) throw notFound(PARTICIPANT_NOT_FOUND);
  const head = {
    success: true,
    outcome: row.outcome,
    first_scan_in_context: row.outcome === 'scanned',
    first_scanned_at: isoTimestamp(firstAt),
    deduplicated,
    scan: scanJson(row),
    scan_context: contextJson(context),
  };
  return {
    outcome: row.outcome,
    deduplicated,
    json: `${JSON.stringify(head).slice(0, -1)},"participant":${participant.j}}`,
  };
}

/** POST /events/{e}/scans: the response body as JSON text. */
export async function createScan(ctx: Ctx, input: ScanInput): Promise<string> {
  return (await recordScan(ctx, validateScan(input))).json;
}

export interface BulkItemResult {
  client_scan_id: string;
  status: 'ok' | 'error';
  outcome?: 'scanned' | 'already_scanned';
  deduplicated?: boolean;
  error?: string;
}

/** POST /events/{e}/scans/bulk: each item in its own transaction, in the order given. */
export async function createScansBulk(
  ctx: Ctx,
  input: BulkScanInput,
): Promise<{ results: BulkItemResult[] }> {
  const results: BulkItemResult[] = [];
  for (const item of input.scans) {
    try {
      const outcome = await recordScan(ctx, validateScan(item));
      results.push({
        client_scan_id: item.client_scan_id,
        status: 'ok',
        outcome: outcome.outcome,
        deduplicated: outcome.deduplicated,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.push({ client_scan_id: item.client_scan_id, status: 'error', error: error.message });
    }
  }
  return { results };
}

/** DELETE /events/{e}/scans/{id}: undo a registration's scans in one context or all. */
export async function undoScans(ctx: Ctx, input: { id: number; scan_context_id?: number }) {
  const event = eventOf(ctx);
  const registrationId = await resolveUndoTarget(ctx.db, event.id, input.id);
  await checkContextFilter(ctx.db, event.id, input.scan_context_id);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM registrations WHERE id = ${registrationId} FOR UPDATE`);
    const contextFilter =
      input.scan_context_id === undefined ? sql`` : sql` AND scan_context_id = ${input.scan_context_id}`;
    // The deleted scans, as GET /scans showed them, go to the live feed as `scan_undone`.
    const res = await tx.execute<ScanRow>(
      sql`WITH s AS (DELETE FROM scans WHERE event_id = ${event.id} AND registration_id = ${registrationId}${contextFilter}
                     RETURNING *)
          SELECT ${SCAN_COLUMNS} FROM s LEFT JOIN users u ON u.id = s.scanner_user_id ORDER BY s.id`,
    );
    await appendFeed(tx, event.id, 'scan_undone', res.rows.map(scanJson));
    const deleted = res.rows.length;
    await recordAudit(tx, {
      action: 'scans.undo',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'registration',
      targetId: registrationId,
      metadata: { deleted_scans: deleted, scan_context_id: input.scan_context_id ?? null },
    });
    return {
      success: true as const,
      deleted_scans: deleted,
      participant_event_id: registrationId,
      scan_context_id: input.scan_context_id ?? null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Scan context management (event admins, series roles, global admins)

export const CONTEXT_NOT_FOUND = 'Scan context not found';
export const KEEP_CHECK_IN = 'An event must keep at least one check-in context';
export const CONTEXT_NAME_TAKEN = 'A scan context with this name already exists for this event';

interface ContextChanges {
  name?: string;
  checksIn?: boolean;
  isTravelPickup?: boolean;
  position?: number;
  startsAt?: string | null;
  endsAt?: string | null;
}

function contextChanges(input: UpdateContextInput): ContextChanges {
  const out: ContextChanges = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '') throw unprocessable('name cannot be blank');
    out.name = name;
  }
  if (input.is_travel_pickup !== undefined && input.is_airport !== undefined) {
    if (input.is_travel_pickup !== input.is_airport) {
      throw unprocessable('is_airport is an alias of is_travel_pickup: they must agree');
    }
  }
  const pickup = input.is_travel_pickup ?? input.is_airport;
  if (pickup !== undefined) out.isTravelPickup = pickup;
  if (input.checks_in !== undefined) out.checksIn = input.checks_in;
  if (input.position !== undefined) out.position = input.position;
  for (const key of ['starts_at', 'ends_at'] as const) {
    const value = input[key];
    if (value === undefined) continue;
    if (value !== null && !isIsoDateTime(value))
      throw unprocessable(`${key} must be an ISO 8601 date-time or null`);
    out[key === 'starts_at' ? 'startsAt' : 'endsAt'] = value;
  }
  return out;
}

async function lockEvent(tx: Tx, eventId: number): Promise<void> {
  await tx.execute(sql`SELECT id FROM events WHERE id = ${eventId} FOR UPDATE`);
}

async function contextInTx(tx: Tx, eventId: number, id: number): Promise<ContextRow> {
  const [row] = id < 1 || id > MAX_INT ? [] : await contextRows(tx, eventId, sql` AND sc.id = ${id}`);
  if (!row) throw notFound(CONTEXT_NOT_FOUND);
  return row;
}

async function nameTaken(tx: Tx, eventId: number, name: string, exceptId: number | null): Promise<boolean> {
  const res = await tx.execute<{ id: number }>(
    sql`SELECT id FROM scan_contexts WHERE event_id = ${eventId} AND lower(name) = lower(${name})
          AND (${exceptId}::int IS NULL OR id <> ${exceptId}::int)`,
  );
  return res.rows.length > 0;
}

async function checkWindow(tx: Tx, id: number): Promise<void> {
  const res = await tx.execute<{ bad: boolean }>(
    sql`SELECT (starts_at IS NOT NULL AND ends_at IS NOT NULL AND ends_at < starts_at) AS bad FROM scan_contexts WHERE id = ${id}`,
  );
  if (res.rows[0]?.bad) throw unprocessable('ends_at must not be before starts_at');
}

async function checkInCount(tx: Tx, eventId: number): Promise<number> {
  const res = await tx.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM scan_contexts WHERE event_id = ${eventId} AND checks_in`,
  );
  return res.rows[0]!.n;
}

function withUniqueName<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    if (isUniqueViolation(error)) throw conflict(CONTEXT_NAME_TAKEN);
    throw error;
  });
}

/** POST /events/{e}/scan_contexts → `{scan_context}` (201). */
export async function createScanContext(ctx: Ctx, input: CreateContextInput) {
  const event = eventOf(ctx);
  const changes = contextChanges(input);
  return withUniqueName(() =>
    ctx.db.transaction(async (tx) => {
      await lockEvent(tx, event.id);
      if (await nameTaken(tx, event.id, changes.name!, null)) throw conflict(CONTEXT_NAME_TAKEN);
      const position =
        changes.position ??
        (
          await tx.execute<{ p: number }>(
            sql`SELECT COALESCE(max(position) + 1, 0)::int AS p FROM scan_contexts WHERE event_id = ${event.id}`,
          )
        ).rows[0]!.p;
      const res = await tx.execute<{ id: number }>(
        sql`INSERT INTO scan_contexts (event_id, name, checks_in, is_travel_pickup, position, starts_at, ends_at)
            VALUES (${event.id}, ${changes.name!}, ${changes.checksIn ?? false}, ${changes.isTravelPickup ?? false},
                    ${position}, ${changes.startsAt ?? null}::timestamptz, ${changes.endsAt ?? null}::timestamptz)
            RETURNING id`,
      );
      const id = res.rows[0]!.id;
      await checkWindow(tx, id);
      await recordAudit(tx, {
        action: 'scan_contexts.create',
        principal: ctx.access.principal,
        eventId: event.id,
        seriesId: event.seriesId,
        targetType: 'scan_context',
        targetId: id,
        metadata: { name: changes.name },
      });
      return { scan_context: contextJson(await contextInTx(tx, event.id, id)) };
    }),
  );
}

/** PATCH /events/{e}/scan_contexts/{id} → `{scan_context}`. */
export async function updateScanContext(ctx: Ctx, id: number, input: UpdateContextInput) {
  const event = eventOf(ctx);
  const changes = contextChanges(input);
  return withUniqueName(() =>
    ctx.db.transaction(async (tx) => {
      await lockEvent(tx, event.id);
      const current = await contextInTx(tx, event.id, id);
      if (changes.name !== undefined && (await nameTaken(tx, event.id, changes.name, id))) {
        throw conflict(CONTEXT_NAME_TAKEN);
      }
      if (changes.checksIn === false && current.checks_in && (await checkInCount(tx, event.id)) <= 1) {
        throw unprocessable(KEEP_CHECK_IN);
      }
      const sets: SQL[] = [];
      if (changes.name !== undefined) sets.push(sql`name = ${changes.name}`);
      if (changes.checksIn !== undefined) sets.push(sql`checks_in = ${changes.checksIn}`);
      if (changes.isTravelPickup !== undefined) sets.push(sql`is_travel_pickup = ${changes.isTravelPickup}`);
      if (changes.position !== undefined) sets.push(sql`position = ${changes.position}`);
      if (changes.startsAt !== undefined) sets.push(sql`starts_at = ${changes.startsAt}::timestamptz`);
      if (changes.endsAt !== undefined) sets.push(sql`ends_at = ${changes.endsAt}::timestamptz`);
      if (sets.length > 0) {
        sets.push(sql`updated_at = now()`);
        await tx.execute(
          sql`UPDATE scan_contexts SET ${sql.join(sets, sql`, `)} WHERE id = ${id} AND event_id = ${event.id}`,
        );
        await checkWindow(tx, id);
        await recordAudit(tx, {
          action: 'scan_contexts.update',
          principal: ctx.access.principal,
          eventId: event.id,
          seriesId: event.seriesId,
          targetType: 'scan_context',
          targetId: id,
          metadata: { fields: Object.keys(input) },
        });
      }
      return { scan_context: contextJson(await contextInTx(tx, event.id, id)) };
    }),
  );
}

/** DELETE /events/{e}/scan_contexts/{id}: deletes it and its scans; clears hotel_scan_context_id. */
export async function deleteScanContext(ctx: Ctx, id: number) {
  const event = eventOf(ctx);
  return ctx.db.transaction(async (tx) => {
    await lockEvent(tx, event.id);
    const current = await contextInTx(tx, event.id, id);
    if (current.checks_in && (await checkInCount(tx, event.id)) <= 1) throw unprocessable(KEEP_CHECK_IN);
    // The context's scans go with it: the live feed reports each as `scan_undone`.
    const scans = await tx.execute<ScanRow>(
      sql`SELECT ${SCAN_COLUMNS} FROM ${SCAN_FROM} WHERE s.scan_context_id = ${id} AND s.event_id = ${event.id} ORDER BY s.id`,
    );
    await appendFeed(tx, event.id, 'scan_undone', scans.rows.map(scanJson));
    await tx.execute(
      sql`UPDATE events SET hotel_scan_context_id = NULL
           WHERE id = ${event.id} AND hotel_scan_context_id = (SELECT uuid FROM scan_contexts WHERE id = ${id})`,
    );
    await tx.execute(sql`DELETE FROM scan_contexts WHERE id = ${id} AND event_id = ${event.id}`);
    const deleted = scans.rows.length;
    await recordAudit(tx, {
      action: 'scan_contexts.delete',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'scan_context',
      targetId: id,
      metadata: { name: current.name, deleted_scans: deleted },
    });
    return { success: true as const, deleted_scans: deleted };
  });
}
