/**
 * Staff resend of a guardian's portal invitation (docs/organiser-api.md
 * "Invitations"). Portal tokens are stored as digests, so a resend always issues a fresh 7-day link
 * (the old one stops working): that is both "resend" and "a fresh link when the old one expired"
 * (`renewed: true` in the audit entry when the old link had lapsed or was never sent).
 * Callers: users with participants access (`guardians.resend`); API keys 403.
 */
import { sql } from 'drizzle-orm';
import { one } from '../../../db/rows.js';
import type { EventCtx } from '../../../deps.js';
import { conflict, notFound, unprocessable } from '../../../lib/errors.js';
import { isoSqlText } from '../../../lib/time.js';
import { recordAudit } from '../../audit/audit.service.js';
import { registrationOfEvent } from '../lifecycle/staff.service.js';
import { sendGuardianInvitations } from './guardian-invitations.js';

export const GUARDIAN_NOT_FOUND = 'Guardian not found';
export const NOT_AWAITING = 'Guardians are invited only while the registration is awaiting_guardian';
export const GUARDIAN_DONE = 'This guardian has already completed the guardian steps';
export const GUARDIAN_DECLINED = 'This guardian has declined';
export const GUARDIAN_NO_EMAIL = 'This guardian has no email address';

export interface GuardianResendJson {
  guardian: {
    id: number;
    status: string;
    invite_sent_at: string;
    invite_expires_at: string;
  };
}

/**
 * Resends guardian `rawGuardianId` of registration `rawPe` (of the context's event). Checks in order:
 * 404 `Participant not found for this event`, 404 `Guardian not found`, 409 (registration not
 * `awaiting_guardian`), 409 (guardian `completed` / `declined`), 422 (no email). The guardian's
 * email is not in the response (it is PII hidden from `limited`). Audited `guardians.resend`.
 */
export async function resendGuardianInvitation(
  ctx: EventCtx,
  rawPe: string,
  rawGuardianId: string,
): Promise<GuardianResendJson> {
  const { id: registrationId } = await registrationOfEvent(ctx, rawPe);
  if (!/^[0-9]{1,9}$/.test(rawGuardianId)) throw notFound(GUARDIAN_NOT_FOUND);
  const guardianId = Number(rawGuardianId);
  return ctx.db.transaction(async (tx) => {
    const reg = await tx.execute<{ status: string }>(
      sql`SELECT status FROM registrations WHERE id = ${registrationId} FOR UPDATE`,
    );
    const res = await tx.execute<{ status: string; email: string | null; lapsed: boolean }>(sql`
      SELECT status, email, (invite_expires_at IS NULL OR invite_expires_at <= now()) AS lapsed
        FROM guardians WHERE id = ${guardianId} AND registration_id = ${registrationId} FOR UPDATE`);
    const g = res.rows[0];
    if (!g) throw notFound(GUARDIAN_NOT_FOUND);
    if (one(reg.rows).status !== 'awaiting_guardian') throw conflict(NOT_AWAITING);
    if (g.status === 'completed') throw conflict(GUARDIAN_DONE);
    if (g.status === 'declined') throw conflict(GUARDIAN_DECLINED);
    if (!g.email?.trim()) throw unprocessable(GUARDIAN_NO_EMAIL);
    await sendGuardianInvitations(ctx, tx, registrationId, { guardianId });
    await recordAudit(tx, {
      action: 'guardians.resend',
      principal: ctx.access.principal,
      eventId: ctx.access.event.id,
      seriesId: ctx.access.event.seriesId,
      targetType: 'guardian',
      targetId: guardianId,
      metadata: { guardian_id: guardianId, registration_id: registrationId, renewed: g.lapsed },
    });
    const out = await tx.execute<GuardianResendJson['guardian']>(
      sql.raw(`SELECT id, status, ${isoSqlText('invite_token_sent_at')} AS invite_sent_at,
                      ${isoSqlText('invite_expires_at')} AS invite_expires_at
                 FROM guardians WHERE id = ${guardianId}`),
    );
    const row = one(out.rows);
    return { guardian: { ...row, id: Number(row.id) } };
  });
}
