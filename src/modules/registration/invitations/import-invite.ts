/**
 * `muster import --invite` (docs/decisions.md "Import"): after an import,
 * every imported registration still `invited` that has no live invitation gets one through the
 * same code path as `POST /events/{e}/participants` (createInvitation: 30-day token, email from the
 * event's support address, audited), in the import's transaction. A live invitation is a pending
 * one that has not expired, or an accepted one, so re-importing the same file sends nothing again;
 * a lapsed (expired) invitation is replaced by a new one.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { Deps } from '../../../deps.js';
import { createInvitation } from './invitations.service.js';

export interface InviteResult {
  /** Addresses invited now (an email is queued for each). */
  invited: string[];
  /** Addresses skipped because a live invitation exists (or the registration was accepted). */
  alreadyInvited: string[];
  /** email_log ids of the queued invitation emails. */
  emailLogIds: number[];
}

/** Invites the `invited` registrations among `registrationIds` of event `eventId` (see file comment). */
export async function inviteImported(
  deps: Deps,
  tx: Tx,
  eventId: number,
  registrationIds: number[],
): Promise<InviteResult> {
  const result: InviteResult = { invited: [], alreadyInvited: [], emailLogIds: [] };
  if (registrationIds.length === 0) return result;
  const rows = await tx.execute<{ email: string; first: string; last: string; live: boolean }>(sql`
    SELECT lower(p.email) AS email, p.legal_first_name AS first, p.legal_last_name AS last,
           EXISTS (SELECT 1 FROM invitations i
                    WHERE i.event_id = r.event_id AND i.email = lower(p.email)
                      AND (i.status = 'accepted' OR (i.status = 'pending' AND i.expires_at > now()))) AS live
      FROM registrations r JOIN people p ON p.id = r.person_id
     WHERE r.event_id = ${eventId} AND r.status = 'invited'
       AND r.id IN (${sql.join(
         registrationIds.map((id) => sql`${id}`),
         sql`, `,
       )})
     ORDER BY r.id`);
  for (const row of rows.rows) {
    if (row.live) {
      result.alreadyInvited.push(row.email);
      continue;
    }
    const created = await createInvitation(deps, tx, {
      eventId,
      email: row.email,
      firstName: row.first,
      lastName: row.last,
      actor: { actorUserId: null },
    });
    result.invited.push(row.email);
    result.emailLogIds.push(created.emailLogId);
  }
  return result;
}

/**
 * Waits until the given emails left the queue (sent or failed) or `timeoutMs` passed; returns how
 * many were sent and how many are still queued (the server's worker delivers those later).
 */
export async function waitForEmails(
  deps: Pick<Deps, 'db'>,
  ids: number[],
  timeoutMs = 60_000,
): Promise<{ sent: number; failed: number; queued: number }> {
  const started = Date.now();
  for (;;) {
    const counts = { sent: 0, failed: 0, queued: 0 };
    if (ids.length > 0) {
      const res = await deps.db.execute<{ status: string; n: number }>(sql`
        SELECT status, count(*)::int AS n FROM email_log WHERE id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) GROUP BY status`);
      for (const { status, n } of res.rows) {
        if (status === 'queued') counts.queued += n;
        else if (status === 'failed') counts.failed += n;
        else counts.sent += n;
      }
    }
    if (counts.queued === 0 || Date.now() - started > timeoutMs) return counts;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
