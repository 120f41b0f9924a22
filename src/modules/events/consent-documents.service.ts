/**
 * Per-event consent documents (docs/decisions.md "Consents").
 * An event starts with the built-in texts (consent-defaults.ts). Saving a document stores it as
 * version 1; later saves edit the current version in place while no consent records it as signed,
 * and add a new version once one does, so every typed signature keeps the exact text it signed
 * (`consents.document_id`, set by the signing service through `documentIdForSigning`).
 * Each version holds its text in the event's default language and `translations` in the other
 * offered ones (docs/languages.md); what readers see: consent-document-text.ts.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { EventModules } from '../../db/schema/index.js';
import type { EventCtx } from '../../deps.js';
import { conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import type { EventLanguages } from '../languages/languages.service.js';
import {
  checkTranslations,
  offeredOf,
  offeredTranslations,
  type TextTranslations,
} from '../languages/translations.js';
import { requiredConsentTypes } from '../registration/lifecycle/completion.js';
import { releaseUnsigned } from '../registration/lifecycle/custom-consents.js';
import type { TransitionActor } from '../registration/lifecycle/lifecycle.js';
import {
  CONSENT_DOCUMENT_TYPES,
  defaultConsentDocument,
  defaultConsentTranslations,
} from './consent-defaults.js';

export const DOCUMENT_NOT_FOUND = 'Consent document not found';
export const TITLE_MAX = 200;
export const BODY_MAX = 20_000;

/** A consent document on the wire (`GET|PUT /events/{e}/consent_documents`). */
export interface ConsentDocumentBody {
  consent_type: string;
  title: string;
  body: string;
  /** Current version; null while the event uses the built-in text. */
  version: number | null;
  /**
   * Whether signing it is needed to complete registration (waiver always, freedom waiver with its
   * module; a custom document as its organiser set it).
   */
  required: boolean;
  /** An organiser's own document (added with POST; may be removed while nobody signed it). */
  custom: boolean;
  /** Signatures recorded against the current version; a save then adds a new version. */
  signed_count: number;
  updated_at: string | null;
  /** The text in the event's other offered languages: `{es: {title, body}}` (built-in: the catalog's). */
  translations: TextTranslations<'title' | 'body'>;
}

/** A save: the default-language text and, optionally, every other offered language's. */
export interface DocumentInput {
  title: string;
  body: string;
  translations?: Record<string, { title: string; body: string }> | undefined;
  /** Custom documents only: whether signing it is needed to complete registration. */
  required?: boolean | undefined;
}

interface DocRow extends Record<string, unknown> {
  id: number;
  consent_type: string;
  version: number;
  title: string;
  body: string;
  translations: Record<string, { title?: string; body?: string }> | null;
  updated_at: string;
  signed_count: number;
  /** Null for the built-in types; set for a custom document. */
  required: boolean | null;
  /** The id of the document's first version (custom documents are listed in the order added). */
  first_id: number;
}

/** The current version of each of the event's documents, with its signature count. */
export async function currentRows(db: Tx, eventId: number, type?: string): Promise<DocRow[]> {
  const res = await db.execute<DocRow>(sql`
    SELECT DISTINCT ON (d.consent_type) d.id, d.consent_type, d.version, d.title, d.body, d.translations, d.updated_at,
           d.required,
           (SELECT min(f.id) FROM event_consent_documents f
             WHERE f.event_id = d.event_id AND f.consent_type = d.consent_type) AS first_id,
           (SELECT count(*)::int FROM consents c WHERE c.document_id = d.id AND c.status = 'signed') AS signed_count
      FROM event_consent_documents d
     WHERE d.event_id = ${eventId} ${type ? sql`AND d.consent_type = ${type}` : sql``}
     ORDER BY d.consent_type, d.version DESC`);
  return res.rows;
}

/** The wire shape of one document: `row` (its current version), or the built-in text when absent. */
export function toBody(
  type: string,
  modules: EventModules,
  row: DocRow | undefined,
  offered: EventLanguages,
): ConsentDocumentBody {
  const builtIn = defaultConsentDocument(type, offered.default_language);
  const text = row ?? builtIn;
  const stored = row ? row.translations : defaultConsentTranslations(type, builtIn.language);
  return {
    consent_type: type,
    title: text.title,
    body: text.body,
    version: row ? Number(row.version) : null,
    required: row?.required ?? requiredConsentTypes(modules).includes(type),
    custom: row ? row.required !== null : false,
    signed_count: row ? Number(row.signed_count) : 0,
    updated_at: row ? isoTimestamp(row.updated_at) : null,
    translations: offeredTranslations(stored, offered, ['title', 'body']),
  };
}

/**
 * GET /events/{e}/consent_documents → every built-in type (the event's version or the default),
 * then the event's custom documents in the order they were added.
 */
export async function listConsentDocuments(
  ctx: EventCtx,
): Promise<{ consent_documents: ConsentDocumentBody[] }> {
  const { event } = ctx.access;
  const rows = await currentRows(ctx.db, event.id);
  const custom = rows
    .filter((r) => r.required !== null)
    .sort((a, b) => Number(a.first_id) - Number(b.first_id));
  const body = (type: string, row: DocRow | undefined) => toBody(type, event.modules, row, offeredOf(event));
  return {
    consent_documents: [
      ...CONSENT_DOCUMENT_TYPES.map((type) =>
        body(
          type,
          rows.find((r) => r.consent_type === type && r.required === null),
        ),
      ),
      ...custom.map((row) => body(row.consent_type, row)),
    ],
  };
}

/**
 * Trimmed title and body, or 422 naming the field (`title`/`body` required and length-limited);
 * the error's `extra.field` tells pages which input to mark.
 */
export function checkDocumentText(input: { title: string; body: string }): { title: string; body: string } {
  const title = input.title.trim();
  const body = input.body.replace(/\r\n?/g, '\n').trim();
  if (title === '') throw unprocessable('title is required', { field: 'title' });
  if (title.length > TITLE_MAX)
    throw unprocessable(`title must be at most ${TITLE_MAX} characters`, { field: 'title' });
  if (body === '') throw unprocessable('body is required', { field: 'body' });
  if (body.length > BODY_MAX)
    throw unprocessable(`body must be at most ${BODY_MAX} characters`, { field: 'body' });
  return { title, body };
}

/**
 * PUT /events/{e}/consent_documents/{type} → `{consent_document}`. 404 for a type that is neither
 * built in nor one of the event's custom documents; 422 (`{error}`, `extra.field` for pages,
 * `extra.language` for a translation) for an empty or too long title/body, a translation in a
 * language the event does not offer or in its default, or `required` on a built-in document; 409
 * when another save of the same document won a race (retry). Edits the current version in place
 * while nobody signed it, else adds version + 1. `translations` absent: the current ones are kept
 * when the default text is unchanged, else dropped (a translation belongs to the text it
 * translates). A custom document's `required` absent: kept. Audited `consent_documents.update`
 * (metadata: type, version, new_version; `languages` when translations were given; `required`
 * for a custom document).
 */
export async function saveConsentDocument(
  ctx: EventCtx,
  type: string,
  input: DocumentInput,
): Promise<{ consent_document: ConsentDocumentBody }> {
  const builtIn = CONSENT_DOCUMENT_TYPES.includes(type);
  if (!builtIn && !(await isCustom(ctx.db, ctx.access.event.id, type))) throw notFound(DOCUMENT_NOT_FOUND);
  if (builtIn && input.required !== undefined)
    throw unprocessable('required of a built-in document follows the event’s modules', { field: 'required' });
  const text = checkDocumentText(input);
  const { event } = ctx.access;
  const offered = offeredOf(event);
  const given = input.translations && checkTranslations(input.translations, offered, checkDocumentText);
  try {
    return await ctx.db.transaction(async (tx) => {
      const first = JSON.stringify(given ?? {});
      // Built-in types only: a custom document always has its version 1.
      const inserted = builtIn
        ? await tx.execute<{ id: number }>(sql`
        INSERT INTO event_consent_documents (event_id, consent_type, version, title, body, translations)
        VALUES (${event.id}, ${type}, 1, ${text.title}, ${text.body}, ${first}::jsonb)
        ON CONFLICT (event_id, consent_type, version) DO NOTHING RETURNING id`)
        : { rows: [] };
      let version = 1;
      let newVersion = inserted.rows.length > 0;
      let required: boolean | null = null;
      let wasRequired: boolean | null = null;
      if (!newVersion) {
        // Locks the current version: a signature in flight (FOR SHARE) finishes first, and counts.
        const current = await tx.execute<
          Pick<DocRow, 'id' | 'version' | 'title' | 'body' | 'translations' | 'required'>
        >(sql`
          SELECT id, version, title, body, translations, required FROM event_consent_documents
           WHERE event_id = ${event.id} AND consent_type = ${type} ORDER BY version DESC LIMIT 1 FOR UPDATE`);
        const row = one(current.rows);
        const unchanged = row.title === text.title && row.body === text.body;
        const translations = given ?? (unchanged ? (row.translations ?? {}) : {});
        const json = JSON.stringify(translations);
        wasRequired = row.required;
        required = row.required === null ? null : (input.required ?? row.required);
        const signed = await tx.execute(
          sql`SELECT 1 FROM consents WHERE document_id = ${row.id} AND status = 'signed' LIMIT 1`,
        );
        newVersion = signed.rows.length > 0;
        version = newVersion ? Number(row.version) + 1 : Number(row.version);
        await tx.execute(
          newVersion
            ? sql`INSERT INTO event_consent_documents (event_id, consent_type, version, title, body, translations, required)
                  VALUES (${event.id}, ${type}, ${version}, ${text.title}, ${text.body}, ${json}::jsonb, ${required})`
            : sql`UPDATE event_consent_documents SET title = ${text.title}, body = ${text.body},
                         translations = ${json}::jsonb, required = ${required}, updated_at = now()
                   WHERE id = ${row.id}`,
        );
      }
      // No longer required: whoever waited only for this document may now be complete.
      if (wasRequired === true && required === false)
        await releaseUnsigned(tx, event.id, type, staffActor(ctx, type), false);
      await recordAudit(tx, {
        action: 'consent_documents.update',
        principal: ctx.access.principal,
        eventId: event.id,
        seriesId: event.seriesId,
        targetType: 'event',
        targetId: event.id,
        metadata: {
          consent_type: type,
          version,
          new_version: newVersion,
          ...(given ? { languages: Object.keys(given) } : {}),
          ...(required === null ? {} : { required }),
        },
      });
      const [row] = await currentRows(tx, event.id, type);
      return { consent_document: toBody(type, event.modules, row, offered) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('This document was changed at the same time; try again');
    throw error;
  }
}

/** Whether `type` is one of the event's custom documents. */
async function isCustom(db: Tx, eventId: number, type: string): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT 1 FROM event_consent_documents
     WHERE event_id = ${eventId} AND consent_type = ${type} AND required IS NOT NULL LIMIT 1`);
  return res.rows.length > 0;
}

/** The completion re-check's actor for an organiser's change to a custom document. */
export function staffActor(ctx: EventCtx, type: string): TransitionActor {
  return { role: 'staff_edit', principal: ctx.access.principal, metadata: { consent_type: type } };
}
