/**
 * Words of the browser scripts (docs/languages.md "Browser scripts"): a page renders the messages
 * its scripts show into `<script type="application/json" id="strings">`, and the scripts read them
 * by key through web/public/js/strings.js (`{name}` arguments; a plural as `<key>_one`,
 * `<key>_other`… chosen by Intl.PluralRules). Staff scripts' words are `staff.scripts.<script>.*`
 * (`desk`: desk.js and its modules); a page may also render another staff group its scripts show
 * (`format`: registration states). Keys are as for `staffText`, without `staff.`. The messages go
 * raw (the browser fills the arguments): test/i18n/script-strings.test.ts keeps them plain text
 * with `{name}` arguments.
 */
import { BASE_LANGUAGE, rawGroup } from './catalog.js';
import { STAFF_LANGUAGE } from './staff.js';

/** The staff messages of `groups` (`scripts.desk`), keyed `<group>.<key>`, in STAFF_LANGUAGE (else English). */
export function staffScriptStrings(groups: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const group of groups) {
    const prefix = `staff.${group}`;
    const messages = { ...rawGroup(BASE_LANGUAGE, prefix), ...rawGroup(STAFF_LANGUAGE, prefix) };
    for (const [key, message] of Object.entries(messages)) out[`${group}.${key}`] = message;
  }
  return out;
}

/**
 * JSON that is safe inside `<script type="application/json">`: `<`, `>` and `&` as `\u00xx`
 * escapes (no `</script>` or `<!--` can end or change the block), and U+2028/U+2029 escaped.
 */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
