/**
 * Organiser-written text per offered language (docs/languages.md "How organisers offer and write
 * per-language content"): a consent document, an email wording or an announcement is written in
 * the event's default language (its own fields) plus `translations`, an object by language code of
 * the same fields (`{es: {subject, body}}`). Pure: no database, no Fastify.
 */
import { type TProperties, Type } from 'typebox';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { languageInfo } from '../../lib/i18n/index.js';
import { type EventLanguages, offeredLanguages } from './languages.service.js';

/** Translations of a text with fields `K`, by language code. */
export type TextTranslations<K extends string> = Record<string, Record<K, string>>;

/** At most this many languages in one `translations` object (more than Muster ships). */
export const MAX_TRANSLATIONS = 20;

/** The wire schema of `translations` for a text whose fields are `fields`. */
export function translationsSchema<T extends TProperties>(fields: T, what: string) {
  return Type.Record(Type.String({ maxLength: 35 }), Type.Object(fields, { additionalProperties: false }), {
    maxProperties: MAX_TRANSLATIONS,
    description: `${what} in other languages the event offers, by language code (\`{"es": {…}}\`), each with the same fields and rules as the default-language text. A key that is not an offered language, or is the event's default language, → 422. A reader whose language has no entry gets the default-language text with a note (docs/languages.md).`,
  });
}

/** The offered languages of an event row (`defaultLanguage`, `languages`). */
export function offeredOf(event: { defaultLanguage: string; languages: string[] }): EventLanguages {
  return offeredLanguages(event.defaultLanguage, event.languages);
}

/**
 * `input` checked against the event's offered languages: every key an offered language other than
 * the default (else 422 naming it and the offered ones), every entry passed through `check`, which
 * trims and validates like the default text (its 422 is re-thrown prefixed `translations.<code>: `,
 * with `extra.language`). Returns the cleaned object, keys in the event's order.
 */
export function checkTranslations<K extends string>(
  input: Record<string, Record<K, string>>,
  offered: EventLanguages,
  check: (text: Record<K, string>) => Record<K, string>,
): TextTranslations<K> {
  const others = offered.languages.filter((l) => l !== offered.default_language);
  for (const code of Object.keys(input)) {
    if (code === offered.default_language)
      throw unprocessable(
        `translations.${code}: ${code} is the event's default language; write that text in the main fields`,
        { language: code },
      );
    if (!others.includes(code))
      throw unprocessable(
        `translations.${code}: ${code} is not a language this event offers (${offered.languages.join(', ')})`,
        { language: code },
      );
  }
  const out: TextTranslations<K> = {};
  for (const code of others) {
    const text = input[code];
    if (!text) continue;
    try {
      out[code] = check(text);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ApiError(error.statusCode, `translations.${code}: ${error.message}`, {
        ...error.extra,
        language: code,
      });
    }
  }
  return out;
}

/** The stored translations the event still offers (a language it stopped offering is kept, not shown). */
export function offeredTranslations<K extends string>(
  stored: Record<string, Partial<Record<K, string>>> | null | undefined,
  offered: EventLanguages,
  fields: readonly K[],
): TextTranslations<K> {
  const out: TextTranslations<K> = {};
  for (const code of offered.languages) {
    const text = stored?.[code];
    if (code === offered.default_language || !text) continue;
    if (fields.every((f) => typeof text[f] === 'string' && text[f] !== ''))
      out[code] = Object.fromEntries(fields.map((f) => [f, text[f]!])) as Record<K, string>;
  }
  return out;
}

/**
 * Which version a reader of `lang` gets: the translation when there is one, else the default text,
 * with `language` the language of the text given and `fallback` true when it is not `lang`.
 */
export function textFor<T extends object>(
  lang: string,
  defaultLanguage: string,
  text: T,
  translations: Record<string, Partial<T>> | null | undefined,
  fields: readonly (keyof T)[],
): { text: T; language: string; fallback: boolean } {
  const own = lang === defaultLanguage ? undefined : translations?.[lang];
  if (own && fields.every((f) => typeof own[f] === 'string' && own[f] !== ''))
    return { text: { ...text, ...own }, language: lang, fallback: false };
  return { text, language: defaultLanguage, fallback: lang !== defaultLanguage };
}

/** The note a reader sees above text shown in another language, in the reader's language. */
export function fallbackNoteKey(textLanguage: string): { key: string; vars: { language: string } } {
  return { key: 'frame.fallback_note', vars: { language: languageInfo(textLanguage).name } };
}
