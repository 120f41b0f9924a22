/**
 * Scan context management (docs/decisions.md "Check-in"; event admins, series roles, global admins): create,
 * update, delete. Each runs in a transaction holding the event row lock, so the "at least one
 * check-in context" and unique-name rules hold under concurrency.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { EventCtx } from '../../deps.js';
import { conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { isIsoDateTime } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import type { CreateContextInput, UpdateContextInput } from './checkin.schemas.js';
import { type ContextRow, contextJson, contextRows, MAX_INT } from './contexts.js';
import { appendFeed } from './scan-feed.repo.js';
import { SCAN_COLUMNS, SCAN_FROM, type ScanRow, scanJson } from './scan-row.js';

export const CONTEXT_NOT_FOUND = 'Scan context not found';
export const KEEP_CHECK_IN = 'An event must keep at least one check-in context';
export const CONTEXT_NAME_TAKEN = 'A scan context with this name already exists for this event';

interface ContextChanges {
  name?: string;
  checksIn?: boolean;
  isTravelPickup?: boolean;
  refuse?: string[] | null;
  tracksPresence?: boolean;
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
  if (input.refuse !== undefined) out.refuse = input.refuse === null ? null : [...new Set(input.refuse)];
  if (input.tracks_presence !== undefined) out.tracksPresence = input.tracks_presence;
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

/** A refuse list as SQL: a text[] of codes, or NULL (the default list). */
const refuseSql = (refuse: string[] | null): SQL =>
  refuse === null
    ? sql`NULL::text[]`
    : sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(refuse)}::jsonb))::text[]`;

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
  return one(res.rows).n;
}

function withUniqueName<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    if (isUniqueViolation(error)) throw conflict(CONTEXT_NAME_TAKEN);
    throw error;
  });
}

/** POST /events/{e}/scan_contexts → `{scan_context}` (201). */
export async function createScanContext(ctx: EventCtx, input: CreateContextInput) {
  const event = ctx.access.event;
  const changes = contextChanges(input);
  return withUniqueName(() =>
    ctx.db.transaction(async (tx) => {
      await lockEvent(tx, event.id);
      if (await nameTaken(tx, event.id, changes.name!, null)) throw conflict(CONTEXT_NAME_TAKEN);
      const position =
        changes.position ??
        one(
          (
            await tx.execute<{ p: number }>(
              sql`SELECT COALESCE(max(position) + 1, 0)::int AS p FROM scan_contexts WHERE event_id = ${event.id}`,
            )
          ).rows,
        ).p;
      const res = await tx.execute<{ id: number }>(
        sql`INSERT INTO scan_contexts (event_id, name, checks_in, is_travel_pickup, refuse, tracks_presence, position, starts_at, ends_at)
            VALUES (${event.id}, ${changes.name!}, ${changes.checksIn ?? false}, ${changes.isTravelPickup ?? false},
                    ${refuseSql(changes.refuse ?? null)}, ${changes.tracksPresence ?? false},
                    ${position}, ${changes.startsAt ?? null}::timestamptz, ${changes.endsAt ?? null}::timestamptz)
            RETURNING id`,
      );
      const id = one(res.rows).id;
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
export async function updateScanContext(ctx: EventCtx, id: number, input: UpdateContextInput) {
  const event = ctx.access.event;
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
      if (changes.refuse !== undefined) sets.push(sql`refuse = ${refuseSql(changes.refuse)}`);
      if (changes.tracksPresence !== undefined) sets.push(sql`tracks_presence = ${changes.tracksPresence}`);
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
export async function deleteScanContext(ctx: EventCtx, id: number) {
  const event = ctx.access.event;
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
