/**
 * The catalog is the only source of text participants, guardians and staff read (issue 28,
 * docs/languages.md):
 * - no template (web/templates, staff pages' included) holds literal human text outside
 *   `it.t(...)` / `it.th(...)`;
 * - every complete catalog has exactly English's keys, and every message the same ICU arguments;
 * - an incomplete catalog (`_meta.complete: false`, Arabic: the pages' frame) has only English keys
 *   and at least every `frame.*` and `format.*` key, the rest falling back to English;
 * - staff strings (`staff.*`, locales/staff/<code>.json) are English only today: a language without
 *   a staff file falls back to English, one with it must have every staff key.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogKeys, languageInfo, rawMessage, SHIPPED_LANGUAGES } from '../../src/lib/i18n/index.js';

const TEMPLATES = join(import.meta.dirname, '../../web/templates');

function templateFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return templateFiles(path);
    return name.endsWith('.eta') ? [path] : [];
  });
}

/** Staff templates whose text has not moved to locales/staff/en.json yet (each must still hold some). */
const STAFF_PENDING: string[] = [];

/** Attributes whose value a person reads (or a screen reader speaks). */
const HUMAN_ATTRIBUTES =
  /\s(alt|title|aria-label|placeholder|aria-description|data-confirm)\s*=\s*"([^"]*)"/gi;

/** The human text a template holds outside eta tags: what is left once code and markup are gone. */
function literalText(source: string): string[] {
  const noEta = source.replace(/<%[\s\S]*?%>/g, ' ');
  const found: string[] = [];
  for (const m of noEta.matchAll(HUMAN_ATTRIBUTES)) if (/\p{L}/u.test(m[2]!)) found.push(`${m[1]}="${m[2]}"`);
  const text = noEta
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, ' ');
  for (const word of text.match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? []) found.push(word);
  return found;
}

/** `{name}` / `{count, plural, …}` arguments of an ICU message (top level and nested). */
function argumentsOf(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*([A-Za-z_][\w]*)\s*[,}]/g)].map((m) => m[1]!))].sort();
}

describe('templates hold no literal text', () => {
  const all = templateFiles(TEMPLATES).map((f) => [f.slice(TEMPLATES.length + 1), f] as const);
  const files = all.filter(([name]) => !STAFF_PENDING.includes(name));
  it('finds the participant, guardian and staff templates', () => {
    expect(files.filter(([name]) => !name.startsWith('staff/')).length).toBeGreaterThan(10);
    expect(all.filter(([name]) => name.startsWith('staff/')).length).toBeGreaterThan(40);
  });
  it.each(files)('%s', (_name, file) => {
    expect(literalText(readFileSync(file, 'utf8'))).toEqual([]);
  });
  it.each(STAFF_PENDING)('%s is still pending (else drop it from the list)', (name) => {
    expect(literalText(readFileSync(join(TEMPLATES, name), 'utf8'))).not.toEqual([]);
  });
  it('the check fails on a staff template with a literal', () => {
    const staffLike = `<% layout('../staff/layout', { ...it }) %>\n<h1><%= it.t('staff.bans.bans') %></h1>\n<p class="hint">Leave empty</p>`;
    expect(literalText(staffLike)).toEqual(['Leave', 'empty']);
    expect(literalText('<div role="region" aria-label="Table"><%= it.t("staff.x") %></div>')).toEqual([
      'aria-label="Table"',
    ]);
  });
  it('the check itself finds text and human attributes', () => {
    expect(literalText('<p>Hello <%= it.name %></p>')).toEqual(['Hello']);
    expect(literalText('<img alt="Logo" src="<%= it.src %>">')).toEqual(['alt="Logo"']);
    // What confirm.js asks before a form is sent is read too.
    expect(literalText('<form data-confirm="Delete room <%= it.r %>?"></form>')).not.toEqual([]);
    expect(literalText('<p><%~ it.th("a.b") %> — <input name="x" type="text"></p>')).toEqual([]);
  });
});

describe('catalogs', () => {
  const en = catalogKeys('en');
  const others = SHIPPED_LANGUAGES.filter((c) => c !== 'en');

  it('ships English and at least two complete languages, and one right-to-left', () => {
    expect(SHIPPED_LANGUAGES).toEqual(expect.arrayContaining(['en', 'es', 'de', 'ar']));
    expect(others.filter((c) => languageInfo(c).complete).length).toBeGreaterThanOrEqual(2);
    expect(SHIPPED_LANGUAGES.some((c) => languageInfo(c).dir === 'rtl')).toBe(true);
  });

  it.each(others)('%s has no key English lacks', (code) => {
    expect(catalogKeys(code).filter((k) => !en.includes(k))).toEqual([]);
  });

  const isStaff = (k: string) => k.startsWith('staff.');

  it.each(others)('%s has every key it must (all when complete; the frame and formats when not)', (code) => {
    const own = new Set(catalogKeys(code));
    const required = languageInfo(code).complete
      ? en.filter((k) => !isStaff(k))
      : en.filter((k) => k.startsWith('frame.') || k.startsWith('format.'));
    expect(required.filter((k) => !own.has(k))).toEqual([]);
  });

  it('English has the staff strings (locales/staff/en.json)', () => {
    expect(en.filter(isStaff).length).toBeGreaterThan(100);
  });

  it.each(others)('%s has every staff string, or none (staff then read English)', (code) => {
    const own = new Set(catalogKeys(code).filter(isStaff));
    if (own.size === 0) return;
    expect(en.filter((k) => isStaff(k) && !own.has(k))).toEqual([]);
  });

  it('Arabic is the one partial catalog, and says so', () => {
    expect(others.filter((c) => !languageInfo(c).complete)).toEqual(['ar']);
  });

  /** `format.when` arranges Intl's pieces; each language picks the pieces it needs. */
  const WHEN_PIECES = ['date', 'day', 'hour', 'minute', 'month', 'time', 'weekday', 'year', 'zone'];

  it.each(SHIPPED_LANGUAGES)('%s format.when uses only the pieces formatWhen gives', (code) => {
    expect(argumentsOf(rawMessage(code, 'format.when')!).filter((a) => !WHEN_PIECES.includes(a))).toEqual([]);
  });

  it.each(others)('%s messages take the same arguments as English', (code) => {
    const differ = catalogKeys(code).filter(
      (k) =>
        k !== 'format.when' &&
        argumentsOf(rawMessage(code, k)!).join() !== argumentsOf(rawMessage('en', k)!).join(),
    );
    expect(differ.map((k) => `${k}: ${rawMessage(code, k)}`)).toEqual([]);
  });
});
