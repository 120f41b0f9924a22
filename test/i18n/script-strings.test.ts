/**
 * Browser scripts' words live in the catalog (docs/languages.md "Browser scripts"):
 * - no string literal of web/public/js/*.js holds human text (test/i18n/literal-text.ts: two words,
 *   a word beside a `${…}`, or one capitalised word); a short allow-list names the wire values
 *   that look like words (CSS classes, event and key names, an error never shown);
 * - every key the scripts use (test/i18n/script-keys.ts) is in locales/staff/en.json (a plural
 *   with its `_one` and `_other`), and every message a page renders for its scripts is plain text
 *   with `{name}` arguments, so the browser's lookup gives what the catalog's ICU formatter gives;
 * - the rendered block cannot be ended or changed by a message (`</script>`, `<!--`).
 * (Every `staff.scripts.*` key is used: test/i18n/staff-strings.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  catalogKeys,
  jsonForHtml,
  rawMessage,
  staffScriptStrings,
  staffText,
} from '../../src/lib/i18n/index.js';
import { literalText } from './literal-text.js';
import { JS_DIR, keysOf, scriptKeys } from './script-keys.js';

/** Wire values in the scripts that look like words: CSS classes, stream events, keys, an Error. */
const NOT_TEXT = new Set([
  'desk-tag alert',
  'hint airport-name',
  'scan scan_undone',
  'Enter',
  'Escape',
  'QR decoder script missing',
]);

const scripts = readdirSync(JS_DIR).filter((f) => f.endsWith('.js'));

describe('browser scripts hold no literal text', () => {
  it('finds the scripts', () => {
    expect(scripts).toEqual(
      expect.arrayContaining(['desk.js', 'desk-view.js', 'rooming-board.js', 'strings.js']),
    );
  });
  it.each(scripts)('%s', (name) => {
    expect(literalText(readFileSync(join(JS_DIR, name), 'utf8'), { js: true, allowed: NOT_TEXT })).toEqual(
      [],
    );
  });
  it('the check finds sentences, single words and words beside a slot, and lets keys and wire values through', () => {
    const source = [
      "$('desk-net').textContent = online ? 'Online' : 'Offline: kept on this device';",
      "view.say('Nothing was stored.');",
      'queue.textContent = `#{waiting} scans waiting to be sent`;',
      "status.textContent = 'Copied.';",
      "view.say(t('scripts.desk.sent'));",
      "box.className = 'desk-panel';",
      "if (e.key === 'Enter') pick();",
      'const url = `/staff/events/#{id}/checkin?context=#{c}`;',
    ]
      .join('\n')
      .replaceAll('#{', '$' + '{');
    expect(literalText(source, { js: true, allowed: NOT_TEXT })).toEqual([
      '1: Online',
      '1: Offline: kept on this device',
      '2: Nothing was stored.',
      '3: … scans waiting to be sent',
      '4: Copied.',
    ]);
  });
});

describe('browser script keys', () => {
  const { exact, plurals, prefixes } = scriptKeys();
  const staffKeys = catalogKeys('en').filter((k) => k.startsWith('staff.'));
  it('finds the keys the scripts use: exact, plural and built from a prefix', () => {
    expect(exact.size).toBeGreaterThan(60);
    expect([...plurals]).toEqual(
      expect.arrayContaining(['scripts.desk.waiting', 'scripts.desk.sign_out_unsent']),
    );
    expect(prefixes).toEqual(expect.arrayContaining(['scripts.desk.said_', 'format.']));
    const mine = keysOf(
      "t(`scripts.desk.feed_#{kind}`); t(ok ? 'scripts.desk.sent' : 'format.sent'); plural('scripts.desk.waiting', n);".replace(
        '#{',
        '$' + '{',
      ),
    );
    expect(mine).toEqual({
      exact: new Set(['scripts.desk.sent', 'format.sent']),
      plurals: new Set(['scripts.desk.waiting']),
      prefixes: ['scripts.desk.feed_'],
    });
  });
  it('every key the scripts use is in locales/staff/en.json', () => {
    expect([...exact].filter((k) => rawMessage('en', `staff.${k}`) === undefined)).toEqual([]);
    for (const k of plurals) {
      expect(rawMessage('en', `staff.${k}_one`), k).toBeDefined();
      expect(rawMessage('en', `staff.${k}_other`), k).toBeDefined();
    }
    for (const p of prefixes)
      expect(
        staffKeys.some((k) => k.startsWith(`staff.${p}`)),
        p,
      ).toBe(true);
  });
  it('every message rendered for scripts is plain text with {name} arguments, as ICU renders it', () => {
    const rendered = staffKeys.filter((k) => k.startsWith('staff.scripts.') || k.startsWith('staff.format.'));
    expect(rendered.length).toBeGreaterThan(90);
    for (const key of rendered) {
      const raw = rawMessage('en', key)!;
      expect(raw.replace(/\{\w+\}/g, ''), key).not.toMatch(/[{}]/);
      const vars = Object.fromEntries([...raw.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], `«${m[1]}»`]));
      const filled = raw.replace(/\{(\w+)\}/g, (_all, name: string) => vars[name]!);
      expect(staffText(key.slice('staff.'.length), vars), key).toBe(filled);
    }
  });
});

describe('the #strings block', () => {
  it('holds the groups a page names, keyed as the scripts ask for them', () => {
    const words = staffScriptStrings(['scripts.desk', 'format']);
    expect(words['scripts.desk.sent']).toBe(rawMessage('en', 'staff.scripts.desk.sent'));
    expect(words['format.in_progress']).toBe(rawMessage('en', 'staff.format.in_progress'));
    expect(words['scripts.staff.copied']).toBeUndefined();
  });
  it('cannot be ended or changed by a message', () => {
    const value = { a: '</script><script>alert(1)</script>', b: '<!-- & -->', c: 'line\u2028break' };
    const json = jsonForHtml(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
