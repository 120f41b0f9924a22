/**
 * The consents behind an event's own (custom) consent documents (docs/decisions.md "Consents"):
 * a submit requests them with the built-in ones (consents.service.ts `requestConsents`); a document
 * added later is requested from every registration already submitted; removing a document (or no
 * longer requiring it) drops or relaxes what those registrations wait for and re-runs their
 * completion check.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { Deps } from '../../../deps.js';
import { esignProviderFor } from '../../../integrations/esign.js';
import { recheckCompletion, type TransitionActor } from './lifecycle.js';

/**
 * SQL for the `consent_type`s of an event's custom documents (rows with `required` set), oldest
 * first, as a JSON array (`[]` when none); `eventId` is an SQL expression.
 */
export function customTypesSql(eventId: SQL) {
  return sql`coalesce((SELECT json_agg(t.consent_type ORDER BY t.first_id) FROM (
      SELECT consent_type, min(id) AS first_id FROM event_consent_documents
       WHERE event_id = ${eventId} AND required IS NOT NULL GROUP BY consent_type) t), '[]'::json)`;
}

/**
 * Requests the custom document `type` from every submitted registration of the event that is not
 * withdrawn or rejected and has no such consent yet: `sent`, pending on a guardian for minors
 * (under 18 on the event's first day) and on the participant otherwise; with an e-signature
 * provider, one `esign-request` job each. Returns how many were requested.
 */
export async function requestFromSubmitted(
  deps: Deps,
  tx: Tx,
  eventId: number,
  type: string,
): Promise<number> {
  const res = await tx.execute<{ id: number }>(sql`
    INSERT INTO consents (registration_id, consent_type, status, pending_on, sent_at)
    SELECT r.id, ${type}, 'sent',
           CASE WHEN p.date_of_birth IS NOT NULL
                 AND p.date_of_birth > (coalesce(e.starts_at, now()) AT TIME ZONE e.timezone)::date - interval '18 years'
                THEN 'guardian' ELSE 'participant' END,
           now()
      FROM registrations r JOIN people p ON p.id = r.person_id JOIN events e ON e.id = r.event_id
     WHERE r.event_id = ${eventId} AND r.submitted_at IS NOT NULL
       AND r.status IN ('in_progress', 'awaiting_guardian', 'complete')
    ON CONFLICT (registration_id, consent_type) DO NOTHING
    RETURNING id`);
  if (esignProviderFor(deps.config)) {
    for (const row of res.rows) await deps.jobs.enqueue(tx, 'esign-request', { consent_id: row.id });
  }
  return res.rows.length;
}

/**
 * Re-runs the completion check of every registration of the event with an unsigned consent of
 * `type` (after that document stopped being required); `remove` first deletes those consents
 * (the document is being removed). Returns the registrations checked.
 */
export async function releaseUnsigned(
  tx: Tx,
  eventId: number,
  type: string,
  actor: TransitionActor,
  remove: boolean,
): Promise<number> {
  const scope = sql`consent_type = ${type} AND status <> 'signed'
       AND registration_id IN (SELECT id FROM registrations WHERE event_id = ${eventId})`;
  const res = remove
    ? await tx.execute<{ registration_id: number }>(
        sql`DELETE FROM consents WHERE ${scope} RETURNING registration_id`,
      )
    : await tx.execute<{ registration_id: number }>(sql`SELECT registration_id FROM consents WHERE ${scope}`);
  const ids = [...new Set(res.rows.map((r) => Number(r.registration_id)))].sort((a, b) => a - b);
  for (const id of ids) await recheckCompletion(tx, id, actor);
  return ids.length;
}
