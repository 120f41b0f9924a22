/**
 * An organiser's own consent documents beside the built-in three (docs/decisions.md
 * "Consents"): added with a stable `consent_type` slug, edited and versioned like the built-in
 * ones (consent-documents.service.ts `saveConsentDocument`), required or not, and removed only
 * while nobody has signed any version of them.
 */
import { sql } from 'drizzle-orm';
import type { EventCtx } from '../../deps.js';
import { conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { checkTranslations, offeredOf } from '../languages/translations.js';
import { releaseUnsigned, requestFromSubmitted } from '../registration/lifecycle/custom-consents.js';
import { CONSENT_DOCUMENT_TYPES } from './consent-defaults.js';
import {
  type ConsentDocumentBody,
  checkDocumentText,
  currentRows,
  DOCUMENT_NOT_FOUND,
  type DocumentInput,
  staffActor,
  toBody,
} from './consent-documents.service.js';

/** A `consent_type` slug: a lowercase letter, then lowercase letters, digits or `_`; 1–50 characters. */
export const CONSENT_TYPE_PATTERN = '^[a-z][a-z0-9_]{0,49}$';
const SLUG = new RegExp(CONSENT_TYPE_PATTERN);
export const BAD_TYPE =
  'consent_type must be 1 to 50 lowercase letters a–z, digits or underscores, starting with a letter';
export const NO_SLUG = 'Give a consent_type: the title has no letters a–z to make one from';
export const SIGNED_NO_REMOVE =
  'This consent document has been signed, so it cannot be removed; save a new text instead (signatures keep the version they signed)';
export const BUILT_IN_NO_REMOVE = 'The built-in consent documents cannot be removed';
export const taken = (type: string) => `A consent document called ${type} already exists on this event`;

/** The slug a title makes: accents dropped, lowercase, runs of other characters → `_`, at most 50. */
export function consentSlug(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, 50)
    .replace(/_+$/, '');
}

/** A new custom document: the text, optionally its slug, and whether signing it is required. */
export interface NewDocumentInput extends DocumentInput {
  consent_type?: string | undefined;
}

/**
 * POST /events/{e}/consent_documents → `{consent_document}` (version 1, `custom: true`).
 * `consent_type` given (trimmed) or made from the title (`consentSlug`); `required` defaults to
 * false. 422 (`extra.field`) for a bad slug, a title without letters a–z and no slug, or bad text or
 * translations (as a save); 409 when the event already has a document of that type (a built-in
 * one included). Every submitted registration of the event (not withdrawn or rejected) is asked
 * to sign it (custom-consents.ts). Audited `consent_documents.create` (metadata: consent_type,
 * version 1, required, requested; `languages` when translations were given).
 */
export async function createConsentDocument(
  ctx: EventCtx,
  input: NewDocumentInput,
): Promise<{ consent_document: ConsentDocumentBody }> {
  const text = checkDocumentText(input);
  const given = input.consent_type?.trim();
  const type = given || consentSlug(text.title);
  if (!given && type === '') throw unprocessable(NO_SLUG, { field: 'consent_type' });
  if (!SLUG.test(type)) throw unprocessable(BAD_TYPE, { field: 'consent_type' });
  if (CONSENT_DOCUMENT_TYPES.includes(type)) throw conflict(taken(type), { field: 'consent_type' });
  const { event } = ctx.access;
  const offered = offeredOf(event);
  const translations =
    input.translations && checkTranslations(input.translations, offered, checkDocumentText);
  const required = input.required ?? false;
  try {
    return await ctx.db.transaction(async (tx) => {
      const existing = await tx.execute(
        sql`SELECT 1 FROM event_consent_documents WHERE event_id = ${event.id} AND consent_type = ${type} LIMIT 1`,
      );
      if (existing.rows.length > 0) throw conflict(taken(type), { field: 'consent_type' });
      await tx.execute(sql`
        INSERT INTO event_consent_documents (event_id, consent_type, version, title, body, translations, required)
        VALUES (${event.id}, ${type}, 1, ${text.title}, ${text.body}, ${JSON.stringify(translations ?? {})}::jsonb,
                ${required})`);
      const requested = await requestFromSubmitted(ctx, tx, event.id, type);
      await recordAudit(tx, {
        action: 'consent_documents.create',
        principal: ctx.access.principal,
        eventId: event.id,
        seriesId: event.seriesId,
        targetType: 'event',
        targetId: event.id,
        metadata: {
          consent_type: type,
          version: 1,
          required,
          requested,
          ...(translations ? { languages: Object.keys(translations) } : {}),
        },
      });
      const [row] = await currentRows(tx, event.id, type);
      return { consent_document: toBody(type, event.modules, row, offered) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(taken(type), { field: 'consent_type' });
    throw error;
  }
}

/**
 * DELETE /events/{e}/consent_documents/{type}: removes a custom document with every version, and
 * the unsigned consents asked for it (their registrations' completion is checked again). 404
 * unknown type; 422 for a built-in one; 409 once any version has been signed (a consent records
 * it). Audited `consent_documents.delete` (metadata: consent_type, versions, registrations).
 */
export async function removeConsentDocument(ctx: EventCtx, type: string): Promise<void> {
  if (CONSENT_DOCUMENT_TYPES.includes(type)) throw unprocessable(BUILT_IN_NO_REMOVE);
  const { event } = ctx.access;
  await ctx.db.transaction(async (tx) => {
    // The consents first, then the versions: the order a typed signature takes its locks in.
    await tx.execute(sql`
      SELECT id FROM consents WHERE consent_type = ${type}
         AND registration_id IN (SELECT id FROM registrations WHERE event_id = ${event.id}) FOR UPDATE`);
    const versions = await tx.execute<{ id: number }>(sql`
      SELECT id FROM event_consent_documents
       WHERE event_id = ${event.id} AND consent_type = ${type} AND required IS NOT NULL FOR UPDATE`);
    if (versions.rows.length === 0) throw notFound(DOCUMENT_NOT_FOUND);
    const signed = await tx.execute(sql`
      SELECT 1 FROM consents WHERE document_id IN (
        SELECT id FROM event_consent_documents WHERE event_id = ${event.id} AND consent_type = ${type}) LIMIT 1`);
    if (signed.rows.length > 0) throw conflict(SIGNED_NO_REMOVE);
    await tx.execute(
      sql`DELETE FROM event_consent_documents WHERE event_id = ${event.id} AND consent_type = ${type}`,
    );
    const registrations = await releaseUnsigned(tx, event.id, type, staffActor(ctx, type), true);
    await recordAudit(tx, {
      action: 'consent_documents.delete',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'event',
      targetId: event.id,
      metadata: { consent_type: type, versions: versions.rows.length, registrations },
    });
  });
}
