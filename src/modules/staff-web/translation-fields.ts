/**
 * The per-language fields of the staff forms that edit organiser-written text (consent documents,
 * email wording, announcements; docs/languages.md "How organisers offer and write per-language
 * content"): one optional group per offered language other than the default, named
 * `tr_<code>_<field>`. A group left blank is no translation; the services check the rest.
 */
import { languageInfo } from '../../lib/i18n/index.js';
import { offeredOf } from '../languages/translations.js';
import type { FormBody } from '../web/web.schemas.js';
import { field } from './org-pages.js';

export interface FormLanguage {
  code: string;
  /** "Español (es)". */
  label: string;
}

/** The event's default language's label and the other offered languages, in the event's order. */
export function formLanguages(event: { defaultLanguage: string; languages: string[] }): {
  default_label: string;
  others: FormLanguage[];
} {
  const offered = offeredOf(event);
  const label = (code: string) => `${languageInfo(code).name} (${code})`;
  return {
    default_label: label(offered.default_language),
    others: offered.languages
      .filter((l) => l !== offered.default_language)
      .map((code) => ({ code, label: label(code) })),
  };
}

/** The `tr_<code>_<field>` groups of a form post; a group whose fields are all blank is left out. */
export function translationsFromForm<K extends string>(
  body: FormBody,
  languages: readonly FormLanguage[],
  names: readonly K[],
): Record<string, Record<K, string>> {
  const out: Record<string, Record<K, string>> = {};
  for (const { code } of languages) {
    const text = Object.fromEntries(names.map((n) => [n, field(body, `tr_${code}_${n}`)])) as Record<
      K,
      string
    >;
    if (names.some((n) => text[n].trim() !== '')) out[code] = text;
  }
  return out;
}
