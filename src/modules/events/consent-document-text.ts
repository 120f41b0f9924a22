/**
 * What participants and guardians read of a consent document (docs/languages.md): the text of
 * the version a consent signed (or the event's current one, or the built-in text) in the reader's
 * language when that version has it, else in the event's default language with a note; and, for
 * a typed signature, the id of the version being signed.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import { notFound } from '../../lib/errors.js';
import {
  CONSENT_DOCUMENT_TYPES,
  consentTitle,
  defaultConsentDocument,
  defaultConsentTranslations,
} from './consent-defaults.js';
import { currentRows, DOCUMENT_NOT_FOUND } from './consent-documents.service.js';

/**
 * The titles the pages list a registration's consents under: per consent id, the title of the
 * version it signed, else of the event's current version, else the built-in title.
 */
export async function consentTitlesOf(
  db: Tx,
  consentIds: number[],
  lang?: string,
): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  for (const id of consentIds) titles.set(id, (await consentDocumentText(db, id, lang)).title);
  return titles;
}

/**
 * Every consent document of the event as type → title, for staff pages' lists, counts and filters:
 * the three built-in types under their built-in titles, then the event's custom documents in the
 * order they were added, under their current version's title (docs/decisions.md "Custom consent
 * documents").
 */
export async function eventConsentTitles(db: Tx, eventId: number): Promise<Map<string, string>> {
  const titles = new Map(CONSENT_DOCUMENT_TYPES.map((type) => [type, consentTitle(type)]));
  const custom = (await currentRows(db, eventId)).filter((row) => row.required !== null);
  custom.sort((a, b) => Number(a.first_id) - Number(b.first_id));
  for (const row of custom) titles.set(row.consent_type, row.title);
  return titles;
}

/**
 * For a typed signature (inside its transaction): the id of the current version of the event's
 * document of `type`, stored first from the built-in text when the event has none, and share-locked
 * so an edit waits for the signature (and then makes a new version).
 */
export async function documentIdForSigning(tx: Tx, eventId: number, type: string): Promise<number> {
  // A custom document always has its rows; only a built-in type may still lack one.
  if (CONSENT_DOCUMENT_TYPES.includes(type)) {
    const event = await tx.execute<{ default_language: string }>(
      sql`SELECT default_language FROM events WHERE id = ${eventId}`,
    );
    const text = defaultConsentDocument(type, event.rows[0]?.default_language);
    // The built-in text is stored with every shipped translation: the version keeps what each reader saw.
    const translations = JSON.stringify(defaultConsentTranslations(type, text.language));
    await tx.execute(sql`
      INSERT INTO event_consent_documents (event_id, consent_type, version, title, body, translations)
      VALUES (${eventId}, ${type}, 1, ${text.title}, ${text.body}, ${translations}::jsonb)
      ON CONFLICT (event_id, consent_type, version) DO NOTHING`);
  }
  const res = await tx.execute<{ id: number }>(sql`
    SELECT id FROM event_consent_documents WHERE event_id = ${eventId} AND consent_type = ${type}
     ORDER BY version DESC LIMIT 1 FOR SHARE`);
  return Number(one(res.rows).id);
}

export interface ConsentPageText {
  title: string;
  /** The body split at blank lines. */
  paragraphs: string[];
  version: number | null;
  /** The language of this title and text (the reader's, or the event's default when not translated). */
  language: string;
  /** True when the reader asked for another language and this text is the default one. */
  fallback: boolean;
  event: { name: string; logo_url: string | null; banner_url: string | null; timezone: string };
}

/**
 * The text a consent page shows: the version the consent was signed against, else the event's
 * current version, else the built-in text; in `lang` when that version has it (an organiser's
 * translation, or the built-in catalog text), else in the event's default language; with the
 * event's name, logo and banner. 404 for an unknown consent.
 */
export async function consentDocumentText(
  db: Tx,
  consentId: number,
  lang?: string,
): Promise<ConsentPageText> {
  const res = await db.execute<{
    consent_type: string;
    title: string | null;
    body: string | null;
    translations: Record<string, { title?: string; body?: string }> | null;
    version: number | null;
    name: string;
    logo_url: string | null;
    banner_url: string | null;
    default_language: string;
    timezone: string;
  }>(sql`
    SELECT c.consent_type, d.title, d.body, d.translations, d.version, e.name, e.logo_url, e.banner_url,
           e.default_language, e.timezone
      FROM consents c JOIN registrations r ON r.id = c.registration_id JOIN events e ON e.id = r.event_id
      LEFT JOIN LATERAL (
        SELECT title, body, translations, version FROM event_consent_documents d
         WHERE (c.document_id IS NOT NULL AND d.id = c.document_id)
            OR (c.document_id IS NULL AND d.event_id = r.event_id AND d.consent_type = c.consent_type)
         ORDER BY version DESC LIMIT 1) d ON true
     WHERE c.id = ${consentId}`);
  const row = res.rows[0];
  if (!row) throw notFound(DOCUMENT_NOT_FOUND);
  const want = lang ?? row.default_language;
  let text: { title: string; body: string; language: string };
  if (row.title !== null && row.body !== null) {
    const translated = want !== row.default_language ? row.translations?.[want] : undefined;
    text =
      translated?.title && translated.body
        ? { title: translated.title, body: translated.body, language: want }
        : { title: row.title, body: row.body, language: row.default_language };
  } else {
    text = defaultConsentDocument(row.consent_type, want);
  }
  return {
    title: text.title || consentTitle(row.consent_type, text.language),
    paragraphs: text.body
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p !== ''),
    version: row.version === null ? null : Number(row.version),
    language: text.language,
    fallback: text.language !== want,
    event: { name: row.name, logo_url: row.logo_url, banner_url: row.banner_url, timezone: row.timezone },
  };
}
