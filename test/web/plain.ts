/**
 * What a person reads on a page must be plain (issue 25 item 4, docs/staff-dashboard.md "Plain
 * words"): no wire field name (`snake_case`, `dietary_detail.intolerances`) and no ISO 8601
 * timestamp. The email rule of test/email/plain.ts, extended to pages.
 *
 * `visibleText(html)` is what a reader meets: text nodes and the attributes people read (`alt`,
 * `title`, `aria-label`, `placeholder`, `value` of buttons), without scripts, styles, comments,
 * `<code>`/`<pre>` (examples of what to type, e.g. a time zone name) and the values of inputs
 * (what was typed, shown back as typed), and email placeholders (`{{event_name}}`, typed as they are).
 */
import { ISO_8601 } from '../email/plain.js';

/** A wire name: lower-case words joined by `_`, optionally dotted (`dietary_detail.intolerances`). */
const SNAKE = /(?<![\w@.\-/])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\.[a-z][a-z0-9_]*)*(?![\w@\-/])/g;
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  apos: "'",
  nbsp: ' ',
};

const decode = (s: string) =>
  s.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
      );
    return ENTITIES[e] ?? m;
  });

/** The text of `html` a person reads (see the file comment), one string per text run or attribute. */
export function visibleText(html: string): string[] {
  const body = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|code|pre|template)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<head\b[^>]*>[\s\S]*?<\/head>/i, (head) => /<title>([\s\S]*?)<\/title>/i.exec(head)?.[0] ?? '');
  const out: string[] = [];
  for (const tag of body.match(/<[a-z][^>]*>/gi) ?? []) {
    for (const m of tag.matchAll(/\s(alt|title|aria-label|placeholder)="([^"]*)"/gi)) out.push(decode(m[2]!));
    if (/^<(button|input)\b/i.test(tag) && /type="(submit|button)"/i.test(tag)) {
      const v = /\svalue="([^"]*)"/i.exec(tag);
      if (v) out.push(decode(v[1]!));
    }
  }
  for (const run of body.replace(/<[^>]*>/g, '\n').split('\n')) {
    // `{{event_name}}`: an email placeholder, which organisers type as it is (docs/email.md).
    const t = decode(run)
      .replace(/\{\{\s*[a-z_]+\s*\}\}/g, '')
      .trim();
    if (t) out.push(t);
  }
  return out;
}

/** The wire names and ISO timestamps in `html`'s visible text (empty: plain). */
export function plainProblems(html: string): string[] {
  const problems: string[] = [];
  for (const t of visibleText(html)) {
    for (const m of t.matchAll(SNAKE)) problems.push(`field name "${m[0]}" in "${t.slice(0, 120)}"`);
    if (ISO_8601.test(t)) problems.push(`ISO 8601 time in "${t.slice(0, 120)}"`);
  }
  return problems;
}
