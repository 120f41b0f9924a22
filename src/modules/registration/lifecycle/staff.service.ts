/**
 * Staff status changes (docs/decisions.md "Registration lifecycle"): event admins, series roles and global
 * admins withdraw, reinstate (withdrawn/rejected → `in_progress`) or reject a registration of the
 * event. Audited through lifecycle.transition (`by: staff`, the credential and the reason).
 */
import { sql } from 'drizzle-orm';
import { one } from '../../../db/rows.js';
import type { EventCtx } from '../../../deps.js';
import { notFound, unprocessable } from '../../../lib/errors.js';
import { isoSqlText } from '../../../lib/time.js';
import { transition } from './lifecycle.js';

export const PARTICIPANT_NOT_FOUND = 'Participant not found for this event';
export type StaffAction = 'withdraw' | 'reinstate' | 'reject';
const TARGET = { withdraw: 'withdrawn', reinstate: 'in_progress', reject: 'rejected' } as const;

/** The registration id of `rawId` in the authorised event; 404 `Participant not found for this event`. */
export async function registrationOfEvent(
  ctx: EventCtx,
  rawId: string,
): Promise<{ id: number; status: string }> {
  const event = ctx.access.event;
  if (!/^[0-9]{1,9}$/.test(rawId)) throw notFound(PARTICIPANT_NOT_FOUND);
  const res = await ctx.db.execute<{ id: number; status: string }>(
    sql`SELECT id, status FROM registrations WHERE id = ${Number(rawId)} AND event_id = ${event.id}`,
  );
  if (!res.rows[0]) throw notFound(PARTICIPANT_NOT_FOUND);
  return res.rows[0];
}

/**
 * Applies `action` → `{success:true, participant_event_id, status, updated_at}`. 422 `Only a
 * withdrawn or rejected registration can be reinstated`, or the state machine's refusal
 * (e.g. `Registration is already withdrawn`, `A registration cannot move from rejected to withdrawn`).
 */
export async function applyStaffAction(ctx: EventCtx, rawId: string, action: StaffAction, reason?: string) {
  const { id } = await registrationOfEvent(ctx, rawId);
  return ctx.db.transaction(async (tx) => {
    const current = await tx.execute<{ status: string }>(
      sql`SELECT status FROM registrations WHERE id = ${id} FOR UPDATE`,
    );
    const status = one(current.rows).status;
    if (action === 'reinstate' && status !== 'withdrawn' && status !== 'rejected')
      throw unprocessable('Only a withdrawn or rejected registration can be reinstated');
    await transition(tx, {
      registrationId: id,
      to: TARGET[action],
      actor: { role: 'staff', principal: ctx.access.principal, metadata: { staff_action: action } },
      reason: reason?.trim() || undefined,
    });
    const res = await tx.execute<{ status: string; updated_at: string }>(
      sql.raw(`SELECT status, ${isoSqlText('updated_at')} AS updated_at FROM registrations WHERE id = ${id}`),
    );
    const row = one(res.rows);
    return {
      success: true as const,
      participant_event_id: id,
      status: row.status,
      updated_at: row.updated_at,
    };
  });
}
