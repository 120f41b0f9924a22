/**
 * Undo (docs/decisions.md "Check-in"): DELETE /events/{e}/scans/{id} removes a registration's scans in one
 * context, or in all, under the registration's row lock; each removed scan goes to the live feed
 * as `scan_undone`.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { EventCtx } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { checkContextFilter } from './contexts.js';
import { parseParticipantId, registrationIdSql } from './participant-ref.js';
import { PARTICIPANT_NOT_FOUND } from './scan.service.js';
import { appendFeed } from './scan-feed.repo.js';
import { SCAN_COLUMNS, type ScanRow, scanJson } from './scan-row.js';

/**
 * Registration id named by an undo path segment (any form of participant-ref.ts: a registration or
 * person id, a registration UUID, a QR payload), or 404.
 */
export async function resolveUndoTarget(db: Tx, eventId: number, segment: string): Promise<number> {
  const ref = parseParticipantId(segment);
  if (ref.kind === 'none' || (typeof ref.value === 'number' && ref.value < 1))
    throw notFound(PARTICIPANT_NOT_FOUND);
  const res = await db.execute<{ id: number | null }>(
    sql`SELECT ${registrationIdSql(ref.kind, sql`${eventId}`, sql`${ref.value}`)} AS id`,
  );
  const found = res.rows[0]?.id;
  if (found === null || found === undefined) throw notFound(PARTICIPANT_NOT_FOUND);
  return found;
}

/** DELETE /events/{e}/scans/{id}: undo a registration's scans in one context or all. */
export async function undoScans(ctx: EventCtx, input: { id: string; scan_context_id?: number }) {
  const event = ctx.access.event;
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
