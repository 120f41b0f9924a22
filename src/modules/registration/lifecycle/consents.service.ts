/**
 * Consents (docs/decisions.md "Consents"): a submit requests the required consents (`waiver`, plus
 * `freedom_waiver` when that module is on) and the event's own documents, pending on the participant (adults) or a guardian
 * (minors). Without an e-signature provider they are signed by typed signature (name, time, IP);
 * with one, an `esign-request` job creates the signing request and the provider's webhook drives
 * the status. Either way a signature re-runs the completion check.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { EventModules, RegistrationStatus } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { EsignPermanentError } from '../../../integrations/docuseal.js';
import { esignProviderFor } from '../../../integrations/esign.js';
import { notFound, unprocessable } from '../../../lib/errors.js';
import { recordAudit } from '../../audit/audit.service.js';
import { documentIdForSigning } from '../../events/consent-document-text.js';
import { requiredConsentTypes } from './completion.js';
import { customTypesSql } from './custom-consents.js';
import { recheckCompletion, type TransitionActor } from './lifecycle.js';

export { CONSENT_NOT_FOUND } from '../../../access/own.js';

import { CONSENT_NOT_FOUND } from '../../../access/own.js';

/**
 * Upserts the required built-in consents and every custom document of the event (required or
 * not; docs/decisions.md "Consents") as `sent` (pending on `pendingOn`, `sent_at` now); a consent
 * already `signed` is left alone. With a provider configured, enqueues one `esign-request` job
 * per consent (re)requested. Returns the ids (re)requested.
 */
export async function requestConsents(
  deps: Deps,
  tx: Tx,
  registrationId: number,
  pendingOn: 'participant' | 'guardian',
): Promise<number[]> {
  const ev = await tx.execute<{ modules: EventModules; custom: string[] }>(sql`
    SELECT e.modules, ${customTypesSql(sql`e.id`)} AS custom
      FROM registrations r JOIN events e ON e.id = r.event_id WHERE r.id = ${registrationId}`);
  if (!ev.rows[0]) throw notFound('Registration not found');
  const ids: number[] = [];
  for (const type of [...requiredConsentTypes(ev.rows[0].modules), ...ev.rows[0].custom]) {
    const res = await tx.execute<{ id: number }>(sql`
      INSERT INTO consents (registration_id, consent_type, status, pending_on, sent_at)
      VALUES (${registrationId}, ${type}, 'sent', ${pendingOn}, now())
      ON CONFLICT (registration_id, consent_type) DO UPDATE
        SET status = 'sent', pending_on = EXCLUDED.pending_on, sent_at = now(), failure_reason = NULL,
            esign_submission_id = NULL, document_url = NULL
        WHERE consents.status <> 'signed'
      RETURNING id`);
    if (res.rows[0]) ids.push(res.rows[0].id);
  }
  if (esignProviderFor(deps.config)) {
    for (const id of ids) await deps.jobs.enqueue(tx, 'esign-request', { consent_id: id });
  }
  return ids;
}

export interface TypedSignatureInput {
  consentId: number;
  signatureName: string;
  ip: string;
  /** Who signs: the participant (adults) or a guardian (minors, through the portal). */
  signer: 'participant' | 'guardian';
  actor: TransitionActor;
  /**
   * The language of the text the signer read (a page's); absent (the API) = the event's default
   * language (docs/languages.md "Consents").
   */
  language?: string | undefined;
}

/**
 * Records a typed signature and re-runs the completion check; returns the registration's status.
 * 404 `Consent not found`; 422 `Signature name is required`, `This consent is already signed`,
 * `Consents are signed through the e-signature provider`, `This consent must be signed by a
 * parent or guardian` (participant on a guardian's consent), `This consent must be signed by the
 * participant` (guardian on the participant's consent), `This registration is <status>`
 * (withdrawn/rejected). Audited as `consents.sign`.
 */
export async function recordTypedSignature(
  deps: Deps,
  tx: Tx,
  input: TypedSignatureInput,
): Promise<RegistrationStatus> {
  const res = await tx.execute<{
    registration_id: number;
    status: string;
    pending_on: string | null;
    consent_type: string;
    reg_status: RegistrationStatus;
    event_id: number;
    series_id: string;
  }>(sql`
    SELECT c.registration_id, c.status, c.pending_on, c.consent_type, r.status AS reg_status,
           r.event_id, e.series_id
      FROM consents c JOIN registrations r ON r.id = c.registration_id JOIN events e ON e.id = r.event_id
     WHERE c.id = ${input.consentId} FOR UPDATE OF c`);
  const row = res.rows[0];
  if (!row) throw notFound(CONSENT_NOT_FOUND);
  const name = input.signatureName.trim();
  if (name === '') throw unprocessable('Signature name is required');
  if (esignProviderFor(deps.config))
    throw unprocessable('Consents are signed through the e-signature provider');
  if (row.reg_status === 'withdrawn' || row.reg_status === 'rejected')
    throw unprocessable(`This registration is ${row.reg_status}`);
  if (row.status === 'signed') throw unprocessable('This consent is already signed');
  if (input.signer === 'participant' && row.pending_on === 'guardian')
    throw unprocessable('This consent must be signed by a parent or guardian');
  if (input.signer === 'guardian' && row.pending_on === 'participant')
    throw unprocessable('This consent must be signed by the participant');
  const signedColumn = sql.raw(input.signer === 'guardian' ? 'guardian_signed_at' : 'participant_signed_at');
  // The signature records the version of the event's document it signed.
  const documentId = await documentIdForSigning(tx, row.event_id, row.consent_type);
  const language = await tx.execute<{ language: string }>(sql`
    SELECT COALESCE(${input.language ?? null}::text, default_language) AS language FROM events WHERE id = ${row.event_id}`);
  const documentLanguage = language.rows[0]?.language ?? null;
  await tx.execute(sql`
    UPDATE consents
       SET status = 'signed', signed_at = now(), ${signedColumn} = now(), pending_on = NULL,
           signature_name = ${name}, signature_ip = ${input.ip}, failure_reason = NULL,
           document_id = ${documentId}, document_language = ${documentLanguage}, updated_at = now()
     WHERE id = ${input.consentId}`);
  await recordAudit(tx, {
    action: 'consents.sign',
    principal: input.actor.principal,
    ...(input.actor.principal ? {} : { actorUserId: input.actor.actorUserId ?? null, via: input.actor.via }),
    eventId: row.event_id,
    seriesId: row.series_id,
    targetType: 'consent',
    targetId: input.consentId,
    metadata: {
      registration_id: row.registration_id,
      consent_type: row.consent_type,
      signer: input.signer,
      method: 'typed',
      document_id: documentId,
      document_language: documentLanguage,
      ...input.actor.metadata,
    },
  });
  return recheckCompletion(tx, row.registration_id, {
    ...input.actor,
    role: 'consent',
    metadata: { ...input.actor.metadata, consent_id: input.consentId },
  });
}

/**
 * Job `esign-request`: creates the provider's signing request for one consent and stores its
 * submission id and document URL. Idempotent: a consent that already has a submission, or is no
 * longer awaiting a signature, is skipped. A permanent refusal is stored as `failure_reason`.
 */
export async function requestEsignSignature(deps: Deps, data: { consent_id: number }): Promise<void> {
  const provider = esignProviderFor(deps.config);
  if (!provider) return;
  const res = await deps.db.execute<{
    consent_type: string;
    status: string;
    pending_on: string | null;
    esign_submission_id: string | null;
    participant_name: string;
    participant_email: string;
    guardian_name: string | null;
    guardian_email: string | null;
    event_name: string;
  }>(sql`
    SELECT c.consent_type, c.status, c.pending_on, c.esign_submission_id,
           p.legal_first_name || ' ' || p.legal_last_name AS participant_name, p.email AS participant_email,
           g.name AS guardian_name, g.email AS guardian_email, e.name AS event_name
      FROM consents c
      JOIN registrations r ON r.id = c.registration_id
      JOIN people p ON p.id = r.person_id
      JOIN events e ON e.id = r.event_id
      LEFT JOIN LATERAL (SELECT name, email FROM guardians WHERE registration_id = r.id AND email IS NOT NULL
                          ORDER BY is_primary DESC, id LIMIT 1) g ON true
     WHERE c.id = ${data.consent_id}`);
  const row = res.rows[0];
  if (!row || row.esign_submission_id || row.status !== 'sent') return;
  const guardian = row.pending_on === 'guardian' && row.guardian_email;
  let result: Awaited<ReturnType<typeof provider.createSigningRequest>>;
  try {
    result = await provider.createSigningRequest({
      consentId: data.consent_id,
      consentType: row.consent_type,
      signer: guardian
        ? { role: 'guardian', name: row.guardian_name ?? row.guardian_email!, email: row.guardian_email! }
        : { role: 'participant', name: row.participant_name, email: row.participant_email },
      participantName: row.participant_name,
      eventName: row.event_name,
    });
  } catch (error) {
    // A refusal that retrying cannot fix (e.g. no template for this consent type) is recorded on
    // the consent for staff to see; anything else is rethrown so the job retries.
    if (!(error instanceof EsignPermanentError)) throw error;
    await deps.db.execute(sql`
      UPDATE consents SET failure_reason = ${error.message.slice(0, 500)}
       WHERE id = ${data.consent_id} AND esign_submission_id IS NULL`);
    return;
  }
  await deps.db.execute(sql`
    UPDATE consents SET esign_submission_id = ${result.submissionId}, document_url = ${result.documentUrl}
     WHERE id = ${data.consent_id} AND esign_submission_id IS NULL`);
}
