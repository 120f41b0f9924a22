/**
 * The message catalog (docs/languages.md): one JSON file per language in `locales/<code>.json`,
 * read once when this module is first imported and held by a single i18next instance with ICU
 * MessageFormat (i18next-icu: plurals, selects, `{name}` arguments). Adding a language is adding a
 * file: its `_meta` names it (`name` in its own language, `dir` ltr|rtl, `intl` the BCP 47 locale
 * used for Intl formatting, `complete` false for a catalog that covers only part of the keys,
 * which then fall back to English). Staff pages' strings live in `locales/staff/<code>.json`, read
 * as the `staff.*` keys of that language (only English has them today: staff pages fall back to it).
 *
 * Pure apart from the one synchronous read at import: no database, no Fastify.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import i18next, { type i18n } from 'i18next';
import { escapeHtml } from '../html.js';
import { fromRoot } from '../project-root.js';

// i18next-icu's ES build imports intl-messageformat's CommonJS entry as a default export, which
// Node's ESM loader hands over as the module object ("IntlMessageFormat is not a constructor");
// its CommonJS build unwraps it correctly (docs/decisions.md "Languages").
const ICU = (createRequire(import.meta.url)('i18next-icu') as { default: new (o: object) => object }).default;

/** `locales/` at the repository root, with a trailing separator. */
export const LOCALES_DIR = fromRoot('locales', '/');

/** The language Muster falls back to for any key a catalog lacks. */
export const BASE_LANGUAGE = 'en';

export interface LanguageInfo {
  /** BCP 47 language code, the file's name: `en`, `es`, `ar`. */
  code: string;
  /** The language's name in itself (for the language switch): `Español`. */
  name: string;
  dir: 'ltr' | 'rtl';
  /** Locale for Intl dates, numbers and lists (`en-GB`). */
  intl: string;
  /** False for a catalog that covers only part of the keys (the rest in English). */
  complete: boolean;
}

type Tree = { [key: string]: string | Tree };
export type Vars = Record<string, unknown>;
/** A translation function bound to one language: `t('pages.home.title', {name})`. */
export type Translate = (key: string, vars?: Vars) => string;

function load(): { infos: Map<string, LanguageInfo>; resources: Record<string, Tree> } {
  const infos = new Map<string, LanguageInfo>();
  const resources: Record<string, Tree> = {};
  const files = readdirSync(LOCALES_DIR)
    .filter((f) => /^[a-z]{2,3}(-[A-Za-z0-9]+)*\.json$/.test(f))
    .sort();
  for (const file of files) {
    const code = file.slice(0, -'.json'.length);
    const { _meta: meta, ...messages } = JSON.parse(readFileSync(`${LOCALES_DIR}${file}`, 'utf8')) as Tree & {
      _meta?: Partial<LanguageInfo>;
    };
    infos.set(code, {
      code,
      name: meta?.name ?? code,
      dir: meta?.dir === 'rtl' ? 'rtl' : 'ltr',
      intl: meta?.intl ?? code,
      complete: meta?.complete !== false,
    });
    const tree = messages as Tree;
    const staff = `${LOCALES_DIR}staff/${file}`;
    if (existsSync(staff)) tree.staff = JSON.parse(readFileSync(staff, 'utf8')) as Tree;
    resources[code] = tree;
  }
  if (!infos.has(BASE_LANGUAGE)) throw new Error(`locales/${BASE_LANGUAGE}.json is missing`);
  return { infos, resources };
}

const loaded = load();
const instance: i18n = i18next.createInstance();
instance.use(new ICU({ memoize: true }) as never).init({
  initAsync: false,
  resources: Object.fromEntries(
    Object.entries(loaded.resources).map(([code, tree]) => [code, { translation: tree }]),
  ),
  lng: BASE_LANGUAGE,
  fallbackLng: BASE_LANGUAGE,
  supportedLngs: [...loaded.infos.keys()],
  load: 'currentOnly',
  returnNull: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
});

/** Every shipped language, `en` first then by code. */
export const SHIPPED_LANGUAGES: readonly string[] = [
  BASE_LANGUAGE,
  ...[...loaded.infos.keys()].filter((c) => c !== BASE_LANGUAGE),
];

export function isShipped(code: string): boolean {
  return loaded.infos.has(code);
}

/** What the catalog says about `code` (English's when not shipped). */
export function languageInfo(code: string): LanguageInfo {
  return loaded.infos.get(code) ?? loaded.infos.get(BASE_LANGUAGE)!;
}

const translators = new Map<string, Translate>();

/** The translation function of `code` (English for an unknown code); one per language, kept. */
export function translator(code: string): Translate {
  const lang = isShipped(code) ? code : BASE_LANGUAGE;
  let t = translators.get(lang);
  if (!t) {
    const fixed = instance.getFixedT(lang);
    t = (key, vars) => {
      // i18next types its result from typed resources; ours are loaded at run time, so check it.
      const out: unknown = fixed(key, vars ?? {});
      return typeof out === 'string' ? out : String(out);
    };
    translators.set(lang, t);
  }
  return t;
}

/** Every key of a language's own file, dotted (`pages.home.title`); for the catalog tests. */
export function catalogKeys(code: string): string[] {
  const out: string[] = [];
  const walk = (tree: Tree, prefix: string) => {
    for (const [k, v] of Object.entries(tree)) {
      if (typeof v === 'string') out.push(`${prefix}${k}`);
      else walk(v, `${prefix}${k}.`);
    }
  };
  walk(loaded.resources[code] ?? {}, '');
  return out.sort();
}

/** The entry at dotted `key` of `code`'s own file; a key may itself hold dots (`personal.address`). */
function rawEntry(code: string, key: string): string | Tree | undefined {
  const find = (tree: string | Tree | undefined, parts: string[]): string | Tree | undefined => {
    if (parts.length === 0) return tree;
    if (tree === undefined || typeof tree === 'string') return undefined;
    for (let i = parts.length; i >= 1; i--) {
      const head = parts.slice(0, i).join('.');
      const found = Object.hasOwn(tree, head) ? find(tree[head], parts.slice(i)) : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return find(loaded.resources[code], key.split('.'));
}

/** The raw message of `key` in `code`'s own file (no fallback), or undefined. */
export function rawMessage(code: string, key: string): string | undefined {
  const entry = rawEntry(code, key);
  return typeof entry === 'string' ? entry : undefined;
}

/** The messages directly under `key` in `code`'s own file, by their own (possibly dotted) key. */
export function rawGroup(code: string, key: string): Record<string, string> {
  const entry = rawEntry(code, key);
  if (entry === undefined || typeof entry === 'string') return {};
  return Object.fromEntries(
    Object.entries(entry).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/**
 * Whether `code`'s own file has every English message `keys` names: a key ending in `.` stands
 * for every English key under it (`email.invitation.`), any other for itself.
 */
export function covers(code: string, keys: readonly string[]): boolean {
  const id = `${code}|${keys.join()}`;
  let answer = coverage.get(id);
  if (answer === undefined) {
    const wanted = catalogKeys(BASE_LANGUAGE).filter((k) =>
      keys.some((w) => (w.endsWith('.') ? k.startsWith(w) : k === w)),
    );
    answer = wanted.every((k) => rawMessage(code, k) !== undefined);
    coverage.set(id, answer);
  }
  return answer;
}
const coverage = new Map<string, boolean>();

/**
 * The first of `candidates` (unset and unshipped ones skipped) whose catalog covers `keys` (see
 * `covers`), else English: the language a whole message is shown in when a partial catalog
 * (Arabic: the pages' frame) lacks its text, so nothing says one language and shows another.
 */
export function firstCovering(
  candidates: readonly (string | null | undefined)[],
  keys: readonly string[],
): string {
  for (const code of candidates) if (code && isShipped(code) && covers(code, keys)) return code;
  return BASE_LANGUAGE;
}

/**
 * A message used as text, not as ICU (Muster's default email wording, whose `{{placeholders}}`
 * the wording module fills): `code`'s own, else English's.
 */
export function rawText(code: string, key: string): string {
  return rawMessage(code, key) ?? rawMessage(BASE_LANGUAGE, key) ?? key;
}

/** `t` with every string argument HTML-escaped: for catalog messages that carry markup (`<strong>`). */
export function htmlTranslator(t: Translate): Translate {
  return (key, vars) =>
    t(
      key,
      vars &&
        Object.fromEntries(
          Object.entries(vars).map(([k, v]) => [k, typeof v === 'string' ? escapeHtml(v) : v]),
        ),
    );
}
