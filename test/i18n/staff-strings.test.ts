/**
 * Staff pages' words live in the catalog (docs/languages.md "Staff pages"), not in TypeScript:
 * - no string literal of the staff pages' code (src/modules/staff-web, the role descriptions) holds
 *   human text: two words of letters with a space between, or, in a template literal, a word
 *   written next to a `${…}` (`Edit ${name}`); a short allow-list names the wire values that look
 *   like words; TypeBox `description`s (the OpenAPI document's) are not page text;
 * - every `staffText`/`staffTable` key the code uses, and every `staff.*` key a staff template uses,
 *   is in locales/staff/en.json, and every key there is used;
 * - every staff message without arguments reads exactly as written (no ICU quoting surprises).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogKeys, rawMessage, staffText } from '../../src/lib/i18n/index.js';
import { literalText } from './literal-text.js';
import { scriptKeys } from './script-keys.js';

const ROOT = join(import.meta.dirname, '../..');
/** The staff pages' TypeScript: what it writes, a staff page shows. */
const STAFF_CODE = ['src/modules/staff-web', 'src/access/role-descriptions.ts'];

/**
 * Literals that look like words but are not page text: a service's message the code matches on
 * (`Already banned …`, `… already exists`), a wire value the history service writes, a parameter's
 * description in the OpenAPI document.
 */
const NOT_TEXT = new Set(['Already banned', 'already exists', 'sensitive section', 'Scan context id']);

function files(path: string, ext: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => {
    const p = join(path, name);
    return statSync(p).isDirectory() ? files(p, ext) : p.endsWith(ext) ? [p] : [];
  });
}

const codeFiles = STAFF_CODE.flatMap((p) => files(join(ROOT, p), '.ts'));

describe('staff code holds no literal text', () => {
  it('finds the staff pages’ code', () => {
    expect(codeFiles.length).toBeGreaterThan(40);
  });
  it.each(codeFiles.map((f) => [relative(ROOT, f), f]))('%s', (_name, file) => {
    expect(literalText(readFileSync(file, 'utf8'), { allowed: NOT_TEXT })).toEqual([]);
  });
  it('the check finds sentences, words beside a slot, and lets wire values and keys through', () => {
    const source = [
      "const DONE = { added: 'The ban was added.' };",
      'const title = `Edit #{section}`;',
      "const a = staffText('bans.the_ban_was_added', { name });",
      "reply.header('Cache-Control', 'public, max-age=3600');",
      "const s = Type.String({ description: 'Scan context id' });",
      "if (message.startsWith('Already banned')) status = 409;",
      'const url = `/staff/events/#{id}/participants?q=#{q}`;',
      "type Kind = 'two words';",
    ]
      .join('\n')
      .replaceAll('#{', '$' + '{');
    expect(literalText(source, { allowed: NOT_TEXT })).toEqual(['1: The ban was added.', '2: Edit …']);
  });
});

/** Keys the code, the staff templates and the browser scripts use: exact keys, and prefixes (`roles.actions.`, a table). */
function usedKeys(): { exact: Set<string>; prefixes: string[] } {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const file of files(join(ROOT, 'src'), '.ts')) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/staffText\(\s*'([^']+)'/g)) exact.add(`staff.${m[1]}`);
    for (const m of source.matchAll(/staffText\(\s*`([^`$]+)\$\{/g)) prefixes.push(`staff.${m[1]}`);
    for (const m of source.matchAll(/staffTable\(\s*'([^']+)'/g)) prefixes.push(`staff.${m[1]}.`);
  }
  for (const file of files(join(ROOT, 'web/templates/staff'), '.eta')) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/it\.th?\(\s*['"](staff\.[^'"]+)['"]/g)) exact.add(m[1]!);
  }
  // The browser scripts' keys (test/i18n/script-strings.test.ts checks them against the catalog).
  const scripts = scriptKeys();
  for (const k of scripts.exact) exact.add(`staff.${k}`);
  for (const k of scripts.plurals) prefixes.push(`staff.${k}_`);
  for (const p of scripts.prefixes) prefixes.push(`staff.${p}`);
  return { exact, prefixes };
}

describe('staff keys', () => {
  const staffKeys = catalogKeys('en').filter((k) => k.startsWith('staff.'));
  const { exact, prefixes } = usedKeys();
  it('finds the keys the code and the templates use', () => {
    expect(exact.size).toBeGreaterThan(500);
    expect(prefixes).toContain('staff.field_labels.');
  });
  it('every key used is in locales/staff/en.json', () => {
    const known = new Set(staffKeys);
    expect([...exact].filter((k) => !known.has(k))).toEqual([]);
    for (const prefix of prefixes)
      expect(
        staffKeys.some((k) => k.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });
  it('every key of locales/staff/en.json is used', () => {
    const unused = staffKeys.filter((k) => !exact.has(k) && !prefixes.some((p) => k.startsWith(p)));
    expect(unused).toEqual([]);
  });
  it('a message without arguments reads exactly as written', () => {
    const plain = staffKeys.filter((k) => !rawMessage('en', k)!.includes('{'));
    expect(plain.length).toBeGreaterThan(500);
    for (const key of plain) expect(staffText(key.slice('staff.'.length)), key).toBe(rawMessage('en', key));
  });
});
