/**
 * Inviting an imported registrant again from their page (docs/staff-dashboard.md "Resend from where
 * the problem is"). A registration still `invited` (imported, not started) is the person's place;
 * the invitation is the email that lets them start. Staff press one button:
 * - a pending invitation for the person's address exists (lapsed or not) → it is resent
 *   (`resendInvitation`: a fresh 30-day link, the old one stops working, audited `invitations.resend`);
 * - none → a new invitation (`inviteParticipant`: the service of `POST /events/{e}/participants`,
 *   audited `invitations.create`).
 * Callers: `participants.invite`. 404 `Participant not found for this event`; 409
 * `Only a registration that has not started can be invited` for any other status.
 */
import { sql } from 'drizzle-orm';
import { one } from '../../../db/rows.js';
import type { EventCtx } from '../../../deps.js';
import { conflict } from '../../../lib/errors.js';
import { isoSqlText } from '../../../lib/time.js';
import { registrationOfEvent } from '../lifecycle/staff.service.js';
import { INVITATION_DAYS, inviteParticipant } from './invitations.service.js';
import { resendInvitation } from './pending.service.js';

export const NOT_INVITED = 'Only a registration that has not started can be invited';

export interface RegistrantInvitation {
  /** The pending invitation for the registrant's address, or null (never emailed, or accepted/revoked). */
  pending: { id: number; sent_at: string; expires_at: string; expired: boolean } | null;
}

async function pendingFor(ctx: EventCtx, registrationId: number) {
  const res = await ctx.db.execute<{
    email: string;
    first: string;
    last: string;
    id: number | null;
    expires_at: string | null;
    expired: boolean | null;
  }>(sql`
    SELECT lower(p.email) AS email, p.legal_first_name AS first, p.legal_last_name AS last,
           i.id, ${sql.raw(isoSqlText('i.expires_at'))} AS expires_at, i.expires_at <= now() AS expired,
           ${sql.raw(isoSqlText(`i.expires_at - make_interval(days => ${INVITATION_DAYS})`))} AS sent_at
      FROM registrations r JOIN people p ON p.id = r.person_id
      LEFT JOIN LATERAL (SELECT id, expires_at FROM invitations
                          WHERE event_id = r.event_id AND email = lower(p.email) AND status = 'pending'
                          ORDER BY id DESC LIMIT 1) i ON true
     WHERE r.id = ${registrationId}`);
  return one(res.rows) as (typeof res.rows)[0] & { sent_at: string | null };
}

/** The invitation state of registration `registrationId` (of the context's event). */
export async function registrantInvitation(
  ctx: EventCtx,
  registrationId: number,
): Promise<RegistrantInvitation> {
  const row = await pendingFor(ctx, registrationId);
  if (row.id === null) return { pending: null };
  return {
    pending: {
      id: Number(row.id),
      sent_at: row.sent_at!,
      expires_at: row.expires_at!,
      expired: !!row.expired,
    },
  };
}

/** Sends registration `rawPe`'s invitation again (see the file comment); 'resent' or 'sent'. */
export async function inviteRegistrant(ctx: EventCtx, rawPe: string): Promise<'resent' | 'sent'> {
  const reg = await registrationOfEvent(ctx, rawPe);
  if (reg.status !== 'invited') throw conflict(NOT_INVITED);
  const row = await pendingFor(ctx, reg.id);
  if (row.id !== null) {
    await resendInvitation(ctx, String(row.id));
    return 'resent';
  }
  await inviteParticipant(ctx, { email: row.email, first_name: row.first, last_name: row.last });
  return 'sent';
}
