/**
 * The catalog keys the browser scripts (web/public/js/*.js) use, read from their string literals
 * by the TypeScript compiler API: a key is a literal under a group pages render for scripts
 * (`scripts.<script>.…`, `format.…`; keys as for `staffText`, without `staff.`). A literal passed
 * to `plural(…)` names a plural (`<key>_one`, `<key>_other`…); a template literal's head
 * (`` `scripts.desk.said_${way}` ``) is a prefix.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export const JS_DIR = join(import.meta.dirname, '../../web/public/js');
const KEY = /^(scripts\.[a-z_]+|format)\.[a-z0-9_]+$/;
const PREFIX = /^(scripts\.[a-z_]+|format)\.[a-z0-9_]*$/;

export interface ScriptKeys {
  exact: Set<string>;
  plurals: Set<string>;
  prefixes: string[];
}

/** The keys one script's `source` uses. */
export function keysOf(
  source: string,
  into: ScriptKeys = { exact: new Set(), plurals: new Set(), prefixes: [] },
) {
  const sf = ts.createSourceFile('x.js', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) && KEY.test(n.text)) {
      const call = n.parent;
      const plural =
        ts.isCallExpression(call) && call.arguments[0] === n && /plural$/.test(call.expression.getText());
      (plural ? into.plurals : into.exact).add(n.text);
    } else if (ts.isTemplateExpression(n) && PREFIX.test(n.head.text)) into.prefixes.push(n.head.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return into;
}

/** The keys every browser script uses. */
export function scriptKeys(): ScriptKeys {
  const all: ScriptKeys = { exact: new Set(), plurals: new Set(), prefixes: [] };
  for (const name of readdirSync(JS_DIR).filter((f) => f.endsWith('.js')))
    keysOf(readFileSync(join(JS_DIR, name), 'utf8'), all);
  return all;
}
