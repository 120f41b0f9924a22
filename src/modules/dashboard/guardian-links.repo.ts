/**
 * Guardians whose portal link staff may send again (docs/staff-dashboard.md "Resend from where the
 * problem is"): guardians not yet `completed` nor `declined`, with an email address, of registrations
 * `awaiting_guardian` — exactly the ones `resendGuardianInvitation` accepts. Each row says whether a
 * link was ever sent and whether it has lapsed, which decides the button's words ("Send the link",
 * "Resend the link", "Issue a fresh link"). Every query carries the event id.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { isoSqlText } from '../../lib/time.js';

export type LinkState = 'never_sent' | 'sent' | 'expired';

export interface GuardianLink {
  registration_id: number;
  participant_name: string;
  guardian_id: number;
  guardian_name: string;
  guardian_status: string;
  /** When the current link was emailed, or null (never). */
  sent_at: string | null;
  expires_at: string | null;
  state: LinkState;
}

type Row = Omit<GuardianLink, 'state'> & { lapsed: boolean };

/**
 * The resendable guardians of event `eventId`, by participant name; one registration's when
 * `registrationId` is given. At most `limit` rows (default 100).
 */
export async function resendableGuardians(
  db: Tx,
  eventId: number,
  opts: { registrationId?: number; limit?: number } = {},
): Promise<GuardianLink[]> {
  const one = opts.registrationId === undefined ? sql`` : sql` AND r.id = ${opts.registrationId}`;
  const res = await db.execute<Row>(sql`
    SELECT r.id AS registration_id,
           concat_ws(' ', COALESCE(NULLIF(p.preferred_name, ''), p.legal_first_name), p.legal_last_name) AS participant_name,
           g.id AS guardian_id, COALESCE(NULLIF(g.name, ''), 'Guardian') AS guardian_name,
           g.status AS guardian_status,
           ${sql.raw(isoSqlText('g.invite_token_sent_at'))} AS sent_at,
           ${sql.raw(isoSqlText('g.invite_expires_at'))} AS expires_at,
           (g.invite_expires_at IS NOT NULL AND g.invite_expires_at <= now()) AS lapsed
      FROM registrations r
      JOIN people p ON p.id = r.person_id
      JOIN guardians g ON g.registration_id = r.id
     WHERE r.event_id = ${eventId} AND r.status = 'awaiting_guardian'${one}
       AND g.status NOT IN ('completed', 'declined') AND btrim(COALESCE(g.email, '')) <> ''
     ORDER BY lower(p.legal_last_name), lower(p.legal_first_name), r.id, g.is_primary DESC, g.id
     LIMIT ${opts.limit ?? 100}`);
  return res.rows.map(({ lapsed, ...r }) => ({
    ...r,
    registration_id: Number(r.registration_id),
    guardian_id: Number(r.guardian_id),
    state: r.sent_at === null || r.expires_at === null ? 'never_sent' : lapsed ? 'expired' : 'sent',
  }));
}

/** The button's words for a link in `state`. */
export const RESEND_LABEL: Record<LinkState, string> = {
  never_sent: 'Send the link',
  sent: 'Resend the link',
  expired: 'Issue a fresh link',
};
