/**
 * Reminder emails (docs/email.md "Reminders"), run hourly by the `email-reminders`
 * job, for events whose `email_reminders_enabled` is on:
 * - a guardian invitation still unanswered (`invited`) 3 days after it was sent is sent again once
 *   (`guardian_resend`), and one that expired while the registration is still `awaiting_guardian`
 *   is renewed once (`guardian_renew`): both issue a fresh 7-day link (the old one stops working);
 * - a participant whose registration is still `invited` or `in_progress` is reminded 7 days
 *   (`close_7d`) and 2 days (`close_2d`) before registration closes (only the 2-day one when the
 *   first run falls inside the last 2 days). Only people with a Muster account are reminded: the
 *   email links to their registration page, which needs a sign-in.
 * Each reminder is one `email_reminders` row (unique per kind, registration and guardian), written
 * with its email and an audit row (`email.reminder`, via `job`) in one transaction, so a second run
 * sends nothing and a failed run sends nothing twice.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { sendGuardianInvitations } from '../registration/invitations/guardian-invitations.js';
import { queueEmail } from './email.service.js';
import { eventEmailContext, recipientLanguage } from './event-email.js';

export const GUARDIAN_RESEND_AFTER_DAYS = 3;
export type ReminderKind = 'guardian_resend' | 'guardian_renew' | 'close_7d' | 'close_2d';

/** Recipients handled per kind and run (an hourly job catches up on the rest). */
const BATCH = 500;

export interface ReminderResult {
  guardians: number;
  participants: number;
}

class NotDue extends Error {}
/** Rolls the reminder's transaction back: the person is no longer due (or was reminded meanwhile). */
function notDue(): never {
  throw new NotDue();
}

/** Runs `work` in a transaction that `notDue()` rolls back; true when it committed. */
async function attempt(deps: Deps, work: (tx: Tx) => Promise<void>): Promise<boolean> {
  try {
    await deps.db.transaction(work);
    return true;
  } catch (error) {
    if (error instanceof NotDue) return false;
    throw error;
  }
}

/** The registration's status, locked for the rest of the transaction. */
async function lockedStatus(tx: Tx, registrationId: number): Promise<string | undefined> {
  const res = await tx.execute<{ status: string }>(
    sql`SELECT status FROM registrations WHERE id = ${registrationId} FOR UPDATE`,
  );
  return res.rows[0]?.status;
}

/** Claims the reminder (null when it was already sent) and records it in the audit trail. */
async function claim(
  tx: Tx,
  r: { event_id: number; series_id: string; registration_id: number; guardian_id: number | null },
  kind: ReminderKind,
): Promise<number | null> {
  const res = await tx.execute<{ id: number }>(sql`
    INSERT INTO email_reminders (event_id, kind, registration_id, guardian_id)
    VALUES (${r.event_id}, ${kind}, ${r.registration_id}, ${r.guardian_id})
    ON CONFLICT ON CONSTRAINT email_reminders_once DO NOTHING RETURNING id`);
  const id = res.rows[0]?.id ?? null;
  if (id === null) return null;
  await recordAudit(tx, {
    action: 'email.reminder',
    via: 'job',
    actorUserId: null,
    eventId: r.event_id,
    seriesId: r.series_id,
    targetType: r.guardian_id === null ? 'registration' : 'guardian',
    targetId: r.guardian_id ?? r.registration_id,
    metadata: { kind, registration_id: r.registration_id },
  });
  return id;
}

type GuardianDue = {
  event_id: number;
  series_id: string;
  registration_id: number;
  guardian_id: number;
  kind: 'guardian_resend' | 'guardian_renew';
};

async function remindGuardians(deps: Deps): Promise<number> {
  const due = await deps.db.execute<GuardianDue>(sql`
    SELECT * FROM (
      SELECT e.id AS event_id, e.series_id, r.id AS registration_id, g.id AS guardian_id,
             CASE WHEN g.invite_expires_at <= now() THEN 'guardian_renew' ELSE 'guardian_resend' END AS kind
        FROM guardians g
        JOIN registrations r ON r.id = g.registration_id
        JOIN events e ON e.id = r.event_id
       WHERE e.email_reminders_enabled AND r.status = 'awaiting_guardian'
         AND g.email IS NOT NULL AND btrim(g.email) <> '' AND g.invite_token_sent_at IS NOT NULL
         AND ((g.status = 'invited' AND g.invite_expires_at > now()
               AND g.invite_token_sent_at <= now() - make_interval(days => ${GUARDIAN_RESEND_AFTER_DAYS}))
              OR (g.status IN ('invited', 'accepted') AND g.invite_expires_at <= now()))) d
     WHERE NOT EXISTS (SELECT 1 FROM email_reminders m
                        WHERE m.kind = d.kind AND m.registration_id = d.registration_id
                          AND m.guardian_id = d.guardian_id)
     ORDER BY d.guardian_id LIMIT ${BATCH}`);
  let sent = 0;
  for (const g of due.rows) {
    const ok = await attempt(deps, async (tx) => {
      if ((await lockedStatus(tx, g.registration_id)) !== 'awaiting_guardian') notDue();
      const id = await claim(tx, g, g.kind);
      if (id === null) notDue();
      const [mail] = await sendGuardianInvitations(deps, tx, g.registration_id, {
        guardianId: g.guardian_id,
        reminder: true,
      });
      if (!mail) notDue();
      await tx.execute(sql`UPDATE email_reminders SET email_log_id = ${mail.emailLogId} WHERE id = ${id}`);
    });
    if (ok) sent++;
  }
  return sent;
}

type ParticipantDue = {
  event_id: number;
  series_id: string;
  registration_id: number;
  guardian_id: null;
  email: string;
  first_name: string;
  language: string | null;
  closes_at: string;
  kind: 'close_7d' | 'close_2d';
};

async function remindParticipants(deps: Deps): Promise<number> {
  const due = await deps.db.execute<ParticipantDue>(sql`
    SELECT * FROM (
      SELECT e.id AS event_id, e.series_id, r.id AS registration_id, NULL::integer AS guardian_id,
             p.email, COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name) AS first_name,
             (SELECT u.language FROM users u WHERE u.id = p.user_id) AS language,
             to_char(e.registration_close_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS closes_at,
             CASE WHEN e.registration_close_at - interval '2 days' <= now() THEN 'close_2d' ELSE 'close_7d' END AS kind
        FROM registrations r
        JOIN events e ON e.id = r.event_id
        JOIN people p ON p.id = r.person_id
       WHERE e.email_reminders_enabled AND r.status IN ('invited', 'in_progress')
         AND p.user_id IS NOT NULL AND p.email IS NOT NULL AND btrim(p.email) <> ''
         AND e.registration_close_at > now()
         AND e.registration_close_at - interval '7 days' <= now()
         AND (e.registration_open_at IS NULL OR e.registration_open_at <= now())) d
     WHERE NOT EXISTS (SELECT 1 FROM email_reminders m
                        WHERE m.kind = d.kind AND m.registration_id = d.registration_id)
     ORDER BY d.registration_id LIMIT ${BATCH}`);
  const base = deps.config.baseUrl.replace(/\/$/, '');
  let sent = 0;
  for (const r of due.rows) {
    const ok = await attempt(deps, async (tx) => {
      const status = await lockedStatus(tx, r.registration_id);
      if (status !== 'invited' && status !== 'in_progress') notDue();
      const id = await claim(tx, r, r.kind);
      if (id === null) notDue();
      const context = await eventEmailContext(deps, tx, r.event_id, 'registration_reminder');
      const emailLogId = await queueEmail(deps, tx, {
        to: r.email,
        from: context.event.support_email ?? undefined,
        eventId: r.event_id,
        template: 'registration_reminder',
        vars: {
          ...context,
          first_name: r.first_name,
          lang: recipientLanguage(context, r.language),
          continue_url: `${base}/register/${r.registration_id}`,
          closes_at: r.closes_at,
        },
      });
      await tx.execute(sql`UPDATE email_reminders SET email_log_id = ${emailLogId} WHERE id = ${id}`);
    });
    if (ok) sent++;
  }
  return sent;
}

/** One run of the reminder job: queues every reminder due now; returns how many were queued. */
export async function sendReminders(deps: Deps): Promise<ReminderResult> {
  const result = { guardians: await remindGuardians(deps), participants: await remindParticipants(deps) };
  if (result.guardians + result.participants > 0) deps.log.info(result, 'reminder emails queued');
  return result;
}
