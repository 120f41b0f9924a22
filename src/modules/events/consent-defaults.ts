/**
 * The built-in consent documents (embedded signing, docs/decisions.md "Consents"): the text shown above a typed
 * signature until an event saves its own version in the setup wizard
 * (consent-documents.service.ts). With an e-signature provider the documents live there instead.
 * Their words live in the catalog (`consent_documents.<type>.title|body`, docs/languages.md), one
 * translation per shipped language.
 */
import { BASE_LANGUAGE, rawMessage, SHIPPED_LANGUAGES } from '../../lib/i18n/index.js';

/** The consent types an event can have a document for, in display order. */
export const CONSENT_DOCUMENT_TYPES = ['waiver', 'freedom_waiver', 'code_of_conduct'];

/** The built-in title of `type` in `lang` (English when that catalog lacks it). */
export function consentTitle(type: string, lang = BASE_LANGUAGE): string {
  const key = `consent_documents.${type}.title`;
  return rawMessage(lang, key) ?? rawMessage(BASE_LANGUAGE, key) ?? type.replace(/_/g, ' ');
}

/**
 * The built-in document of `type` as a title and a plain-text body (paragraphs split by blank
 * lines), in `lang` when its catalog has it (`language` says which one it is).
 */
export function defaultConsentDocument(
  type: string,
  lang = BASE_LANGUAGE,
): { title: string; body: string; language: string } {
  const body = (code: string) => rawMessage(code, `consent_documents.${type}.body`);
  const language = body(lang) !== undefined ? lang : BASE_LANGUAGE;
  return { title: consentTitle(type, language), body: body(language) ?? '', language };
}

/** The built-in document of `type` in every shipped language but `except`: `{es: {title, body}}`. */
export function defaultConsentTranslations(
  type: string,
  except: string,
): Record<string, { title: string; body: string }> {
  const out: Record<string, { title: string; body: string }> = {};
  for (const code of SHIPPED_LANGUAGES) {
    if (code === except) continue;
    const doc = defaultConsentDocument(type, code);
    if (doc.language === code) out[code] = { title: doc.title, body: doc.body };
  }
  return out;
}

/** The built-in English paragraphs of each type (what an event shows until it saves its own). */
export const CONSENT_TEXTS: Record<string, string[]> = Object.fromEntries(
  CONSENT_DOCUMENT_TYPES.map((type) => [type, defaultConsentDocument(type).body.split('\n\n')]),
);
