/**
 * Per-event consent documents (docs/decisions.md "Consents").
 * An event starts with the built-in texts (consent-defaults.ts). Saving a document stores it as
 * version 1; later saves edit the current version in place while no consent records it as signed,
 * and add a new version once one does, so every typed signature keeps the exact text it signed
 * (`consents.document_id`, set by the signing service through `documentIdForSigning`).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { EventModules } from '../../db/schema/index.js';
import type { EventCtx } from '../../deps.js';
import { conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.js';
import { isoTimestamp } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import { requiredConsentTypes } from '../registration/lifecycle/completion.js';
import { CONSENT_DOCUMENT_TYPES, consentTitle, defaultConsentDocument } from './consent-defaults.js';

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
  /** Whether a registration of this event is asked to sign it (waiver always, freedom waiver with its module). */
  required: boolean;
  /** Signatures recorded against the current version; a save then adds a new version. */
  signed_count: number;
  updated_at: string | null;
}

interface DocRow extends Record<string, unknown> {
  id: number;
  consent_type: string;
  version: number;
  title: string;
  body: string;
  updated_at: string;
  signed_count: number;
}

/** The current version of each of the event's documents, with its signature count. */
async function currentRows(db: Tx, eventId: number, type?: string): Promise<DocRow[]> {
  const res = await db.execute<DocRow>(sql`
    SELECT DISTINCT ON (d.consent_type) d.id, d.consent_type, d.version, d.title, d.body, d.updated_at,
           (SELECT count(*)::int FROM consents c WHERE c.document_id = d.id AND c.status = 'signed') AS signed_count
      FROM event_consent_documents d
     WHERE d.event_id = ${eventId} ${type ? sql`AND d.consent_type = ${type}` : sql``}
     ORDER BY d.consent_type, d.version DESC`);
  return res.rows;
}

function toBody(type: string, modules: EventModules, row: DocRow | undefined): ConsentDocumentBody {
  const text = row ?? defaultConsentDocument(type);
  return {
    consent_type: type,
    title: text.title,
    body: text.body,
    version: row ? Number(row.version) : null,
    required: requiredConsentTypes(modules).includes(type),
    signed_count: row ? Number(row.signed_count) : 0,
    updated_at: row ? isoTimestamp(row.updated_at) : null,
  };
}

/** GET /events/{e}/consent_documents → every document type, the event's version or the default. */
export async function listConsentDocuments(
  ctx: EventCtx,
): Promise<{ consent_documents: ConsentDocumentBody[] }> {
  const { event } = ctx.access;
  const rows = await currentRows(ctx.db, event.id);
  return {
    consent_documents: CONSENT_DOCUMENT_TYPES.map((type) =>
      toBody(
        type,
        event.modules,
        rows.find((r) => r.consent_type === type),
      ),
    ),
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
 * PUT /events/{e}/consent_documents/{type} → `{consent_document}`. 404 for an unknown type; 422
 * (`{error}`, `extra.field` for pages) for an empty or too long title/body; 409 when another save of the same
 * document won a race (retry). Edits the current version in place while nobody signed it, else
 * adds version + 1. Audited `consent_documents.update` (metadata: type, version, new_version).
 */
export async function saveConsentDocument(
  ctx: EventCtx,
  type: string,
  input: { title: string; body: string },
): Promise<{ consent_document: ConsentDocumentBody }> {
  if (!CONSENT_DOCUMENT_TYPES.includes(type)) throw notFound(DOCUMENT_NOT_FOUND);
  const text = checkDocumentText(input);
  const { event } = ctx.access;
  try {
    return await ctx.db.transaction(async (tx) => {
      const inserted = await tx.execute<{ id: number }>(sql`
        INSERT INTO event_consent_documents (event_id, consent_type, version, title, body)
        VALUES (${event.id}, ${type}, 1, ${text.title}, ${text.body})
        ON CONFLICT (event_id, consent_type, version) DO NOTHING RETURNING id`);
      let version = 1;
      let newVersion = inserted.rows.length > 0;
      if (!newVersion) {
        // Locks the current version: a signature in flight (FOR SHARE) finishes first, and counts.
        const current = await tx.execute<{ id: number; version: number }>(sql`
          SELECT id, version FROM event_consent_documents
           WHERE event_id = ${event.id} AND consent_type = ${type} ORDER BY version DESC LIMIT 1 FOR UPDATE`);
        const row = current.rows[0]!;
        const signed = await tx.execute(
          sql`SELECT 1 FROM consents WHERE document_id = ${row.id} AND status = 'signed' LIMIT 1`,
        );
        newVersion = signed.rows.length > 0;
        version = newVersion ? Number(row.version) + 1 : Number(row.version);
        await tx.execute(
          newVersion
            ? sql`INSERT INTO event_consent_documents (event_id, consent_type, version, title, body)
                  VALUES (${event.id}, ${type}, ${version}, ${text.title}, ${text.body})`
            : sql`UPDATE event_consent_documents SET title = ${text.title}, body = ${text.body}, updated_at = now()
                   WHERE id = ${row.id}`,
        );
      }
      await recordAudit(tx, {
        action: 'consent_documents.update',
        principal: ctx.access.principal,
        eventId: event.id,
        seriesId: event.seriesId,
        targetType: 'event',
        targetId: event.id,
        metadata: { consent_type: type, version, new_version: newVersion },
      });
      const [row] = await currentRows(tx, event.id, type);
      return { consent_document: toBody(type, event.modules, row) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('This document was changed at the same time; try again');
    throw error;
  }
}

/**
 * The titles the pages list a registration's consents under: per consent id, the title of the
 * version it signed, else of the event's current version, else the built-in title.
 */
export async function consentTitlesOf(db: Tx, consentIds: number[]): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  for (const id of consentIds) titles.set(id, (await consentDocumentText(db, id)).title);
  return titles;
}

/**
 * For a typed signature (inside its transaction): the id of the current version of the event's
 * document of `type`, stored first from the built-in text when the event has none, and share-locked
 * so an edit waits for the signature (and then makes a new version).
 */
export async function documentIdForSigning(tx: Tx, eventId: number, type: string): Promise<number> {
  const text = defaultConsentDocument(type);
  await tx.execute(sql`
    INSERT INTO event_consent_documents (event_id, consent_type, version, title, body)
    VALUES (${eventId}, ${type}, 1, ${text.title}, ${text.body})
    ON CONFLICT (event_id, consent_type, version) DO NOTHING`);
  const res = await tx.execute<{ id: number }>(sql`
    SELECT id FROM event_consent_documents WHERE event_id = ${eventId} AND consent_type = ${type}
     ORDER BY version DESC LIMIT 1 FOR SHARE`);
  return Number(res.rows[0]!.id);
}

export interface ConsentPageText {
  title: string;
  /** The body split at blank lines. */
  paragraphs: string[];
  version: number | null;
  event: { name: string; logo_url: string | null; banner_url: string | null };
}

/**
 * The text a consent page shows: the version the consent was signed against, else the event's
 * current version, else the built-in text; with the event's name, logo and banner. 404 for an
 * unknown consent.
 */
export async function consentDocumentText(db: Tx, consentId: number): Promise<ConsentPageText> {
  const res = await db.execute<{
    consent_type: string;
    title: string | null;
    body: string | null;
    version: number | null;
    name: string;
    logo_url: string | null;
    banner_url: string | null;
  }>(sql`
    SELECT c.consent_type, d.title, d.body, d.version, e.name, e.logo_url, e.banner_url
      FROM consents c JOIN registrations r ON r.id = c.registration_id JOIN events e ON e.id = r.event_id
      LEFT JOIN LATERAL (
        SELECT title, body, version FROM event_consent_documents d
         WHERE (c.document_id IS NOT NULL AND d.id = c.document_id)
            OR (c.document_id IS NULL AND d.event_id = r.event_id AND d.consent_type = c.consent_type)
         ORDER BY version DESC LIMIT 1) d ON true
     WHERE c.id = ${consentId}`);
  const row = res.rows[0];
  if (!row) throw notFound(DOCUMENT_NOT_FOUND);
  const text =
    row.title !== null && row.body !== null
      ? { title: row.title, body: row.body }
      : defaultConsentDocument(row.consent_type);
  return {
    title: text.title || consentTitle(row.consent_type),
    paragraphs: text.body
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p !== ''),
    version: row.version === null ? null : Number(row.version),
    event: { name: row.name, logo_url: row.logo_url, banner_url: row.banner_url },
  };
}
