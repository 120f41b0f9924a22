/**
 * E-signature events (DocuSeal-style, docs/decisions.md "Messaging") → consent status, then the
 * registration completion check (modules/registration/lifecycle/lifecycle.ts recheckCompletion).
 *
 * The consent is the one whose `esign_submission_id` is the event's submission id
 * (`data.submission_id` / `data.submission.id` for `form.*`, `data.id` for `submission.*`).
 * - `form.viewed` → `viewed` (+ viewed_at), only from `pending`/`sent`;
 * - `form.completed` → the signer's time (participant_signed_at or guardian_signed_at by role); the
 *   consent becomes `signed` when the submission reports every signer done (else on `submission.completed`);
 * - `submission.completed` → `signed` (+ signed_at, document_url);
 * - `form.declined` → `declined` (+ failure_reason); `submission.expired` → `expired`.
 * `signed`, `declined` and `expired` are final: a late or out-of-order event never moves them.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import type { Deps } from '../deps.js';
import { recheckCompletion } from '../modules/registration/lifecycle/lifecycle.js';
import { idText, isoOf, obj, str } from './payload.js';

const FINAL = new Set(['signed', 'declined', 'expired']);

type ConsentRow = { id: number; registration_id: number; status: string };

function submissionIdOf(type: string, data: Record<string, unknown>): string | undefined {
  if (type.startsWith('submission.')) return idText(data.id);
  return idText(data.submission_id) ?? idText(obj(data.submission)?.id);
}

function documentUrlOf(data: Record<string, unknown>): string | null {
  const docs = Array.isArray(data.documents) ? data.documents : [];
  const url = str(data.combined_document_url, 2000) ?? str(obj(docs[0])?.url, 2000);
  return url && /^https?:\/\//.test(url) ? url : null;
}

export async function applyEsignEvent(
  _deps: Deps,
  tx: Tx,
  event: { eventType: string; payload: Record<string, unknown> },
): Promise<string> {
  const type = event.eventType;
  const data = obj(event.payload.data) ?? {};
  const submissionId = submissionIdOf(type, data);
  if (!submissionId) return 'ignored';
  const res = await tx.execute<ConsentRow>(sql`SELECT id, registration_id, status FROM consents
    WHERE esign_submission_id = ${submissionId} ORDER BY id FOR UPDATE`);
  const consents = res.rows;
  if (consents.length === 0) return 'unmatched';
  const at = isoOf(event.payload.timestamp) ?? new Date().toISOString();
  let changed = 0;
  for (const consent of consents) {
    if (FINAL.has(consent.status)) continue;
    const update = updateFor(type, data, at);
    if (!update) continue;
    await tx.execute(sql`UPDATE consents SET ${update}, updated_at = now() WHERE id = ${consent.id}`);
    changed += 1;
    // Viewing changes nothing the completion check reads.
    if (type === 'form.viewed') continue;
    await recheckCompletion(tx, Number(consent.registration_id), {
      role: 'consent',
      actorUserId: null,
      via: 'webhook',
      metadata: { consent_id: Number(consent.id), source: 'esign_webhook', esign_event: type },
    });
  }
  return changed > 0 ? type : 'unchanged';
}

/** The SET clause of one event, or null when the event moves nothing. */
function updateFor(type: string, data: Record<string, unknown>, at: string) {
  switch (type) {
    case 'form.viewed':
      return sql`viewed_at = coalesce(viewed_at, ${at}),
        status = CASE WHEN status IN ('pending', 'sent') THEN 'viewed' ELSE status END`;
    case 'form.completed': {
      const signedAt = isoOf(data.completed_at) ?? at;
      const guardian = /guardian|parent/i.test(str(data.role, 100) ?? '');
      const column = guardian ? sql.raw('guardian_signed_at') : sql.raw('participant_signed_at');
      const allDone = str(obj(data.submission)?.status, 50) === 'completed';
      return allDone
        ? sql`${column} = coalesce(${column}, ${signedAt}), status = 'signed',
            signed_at = ${signedAt}, failure_reason = NULL, document_url = coalesce(${documentUrlOf(data)}, document_url)`
        : sql`${column} = coalesce(${column}, ${signedAt}), viewed_at = coalesce(viewed_at, ${signedAt})`;
    }
    case 'submission.completed': {
      const signedAt = isoOf(data.completed_at) ?? at;
      return sql`status = 'signed', signed_at = ${signedAt}, failure_reason = NULL,
        document_url = coalesce(${documentUrlOf(data)}, document_url)`;
    }
    case 'form.declined':
      return sql`status = 'declined', failure_reason = ${str(data.decline_reason, 500) ?? 'Declined by the signer'}`;
    case 'submission.expired':
      return sql`status = 'expired', failure_reason = 'The signing request expired'`;
    default:
      return null;
  }
}
