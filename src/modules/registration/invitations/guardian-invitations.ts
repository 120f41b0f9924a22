/**
 * Guardian invitations (docs/decisions.md "Guardian portal"): when a minor submits, every guardian not yet `completed`
 * (and, later, each guardian added while the registration waits for them) gets a fresh 7-day portal token (stored as its SHA-256 digest in guardians.invite_token_digest;
 * a new token replaces the old one) and an email from the event's support address, in the
 * caller's transaction. The portal (`/guardian/{token}`) is the guardian's credential.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { one } from '../../../db/rows.js';
import type { Deps } from '../../../deps.js';
import { normalizeEmail } from '../../../lib/identifiers.js';
import { queueEmail } from '../../email/email.service.js';
import { eventEmailContext, recipientLanguage } from '../../email/event-email.js';
import { newToken } from './invitations.service.js';

export const GUARDIAN_INVITE_DAYS = 7;

export interface GuardianInvitationSent {
  guardianId: number;
  email: string;
  /** The one-time portal token (only in the email; never stored). */
  token: string;
  expiresAt: string;
  /** email_log id of the queued email. */
  emailLogId: number;
}

type GuardianRow = {
  id: number;
  name: string | null;
  language: string | null;
  email: string;
  participant_name: string;
  event_id: number;
  event_name: string;
  support_email: string | null;
};

/**
 * Issues tokens and queues emails for the registration's guardians that have an email and are not
 * `completed` (or `declined`). Status `pending` becomes `invited`; `accepted` stays. Sets
 * `invite_token_sent_at`, `invite_expires_at` (+7 days) and `invited_via_email`. Returns what was sent.
 * `onlyUninvited`: only guardians never invited at their current address (see inviteNewGuardians);
 * `guardianId`: only that guardian (staff resend, guardian-resend.service.ts; the reminder job);
 * `reminder`: the email is a reminder (reminders.service.ts).
 */
export async function sendGuardianInvitations(
  deps: Deps,
  tx: Tx,
  registrationId: number,
  opts: { onlyUninvited?: boolean; guardianId?: number; reminder?: boolean } = {},
): Promise<GuardianInvitationSent[]> {
  const uninvited = opts.onlyUninvited
    ? sql` AND (g.invite_token_sent_at IS NULL OR g.invited_via_email IS DISTINCT FROM lower(btrim(g.email)))`
    : sql``;
  const onlyGuardian = opts.guardianId === undefined ? sql`` : sql` AND g.id = ${opts.guardianId}`;
  const res = await tx.execute<GuardianRow>(sql`
    SELECT g.id, g.name, g.email, g.language,
           COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name) AS participant_name,
           e.id AS event_id, e.name AS event_name, e.support_email
      FROM guardians g
      JOIN registrations r ON r.id = g.registration_id
      JOIN people p ON p.id = r.person_id
      JOIN events e ON e.id = r.event_id
     WHERE g.registration_id = ${registrationId} AND g.email IS NOT NULL AND btrim(g.email) <> ''
       AND g.status NOT IN ('completed', 'declined')${uninvited}${onlyGuardian}
     ORDER BY g.is_primary DESC, g.id`);
  const base = deps.config.baseUrl.replace(/\/$/, '');
  const sent: GuardianInvitationSent[] = [];
  const first = res.rows[0];
  if (!first) return sent;
  const context = await eventEmailContext(deps, tx, first.event_id, 'guardian_invitation');
  for (const g of res.rows) {
    const { token, digest } = newToken();
    const email = normalizeEmail(g.email);
    const updated = await tx.execute<{ expires_at: string }>(sql`
      UPDATE guardians
         SET invite_token_digest = ${digest},
             invite_expires_at = now() + make_interval(days => ${GUARDIAN_INVITE_DAYS}),
             invite_token_sent_at = now(),
             invited_via_email = ${email},
             status = CASE WHEN status = 'pending' THEN 'invited' ELSE status END
       WHERE id = ${g.id}
       RETURNING to_char(invite_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS expires_at`);
    const expiresAt = one(updated.rows).expires_at;
    const emailLogId = await queueEmail(deps, tx, {
      to: email,
      from: g.support_email ?? undefined,
      eventId: g.event_id,
      template: 'guardian_invitation',
      vars: {
        ...context,
        participant_name: g.participant_name,
        guardian_name: g.name,
        lang: recipientLanguage(context, g.language),
        portal_url: `${base}/guardian/accept?token=${token}`,
        expires_at: expiresAt,
        ...(opts.reminder ? { reminder: true } : {}),
      },
    });
    sent.push({ guardianId: g.id, email, token, expiresAt, emailLogId });
  }
  return sent;
}

/**
 * After an edit of a submitted record (PATCH /registrations/{pe}): while the registration waits for
 * its guardians (`awaiting_guardian`), a guardian added since the submission, or given a new email
 * address, gets the portal invitation now rather than at a later resubmission; guardians already
 * invited at their address are not emailed again. In the caller's transaction.
 */
export async function inviteNewGuardians(
  deps: Deps,
  tx: Tx,
  registrationId: number,
): Promise<GuardianInvitationSent[]> {
  const res = await tx.execute<{ status: string }>(
    sql`SELECT status FROM registrations WHERE id = ${registrationId}`,
  );
  if (res.rows[0]?.status !== 'awaiting_guardian') return [];
  return sendGuardianInvitations(deps, tx, registrationId, { onlyUninvited: true });
}
