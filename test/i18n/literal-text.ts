/**
 * The human text in a source file's string literals (docs/languages.md "Staff pages", "Browser
 * scripts"), read by the TypeScript compiler API: a literal with two words of letters separated by
 * a space, or a template literal with a lower-case word written next to a `${…}` (`Edit ${name}`).
 * In browser scripts (`js: true`) a single capitalised word is text too (`'Online'`, `'Sent.'`),
 * as DOM text is often one word. Import and export names, literal types and TypeBox `description`s
 * (the OpenAPI document's) are not page text; `allowed` names wire values that look like words.
 */
import ts from 'typescript';

const TWO_WORDS = /\p{L}{2,} +\p{L}{2,}/u;
/** A word (not an abbreviation such as UTC) at either end of a template literal's piece. */
const WORD_BY_SLOT = /(^|\s)\p{L}*\p{Ll}\p{L}*\s*$|^\s*\p{L}*\p{Ll}\p{L}*(\s|$)/u;
/** One capitalised word, maybe with its full stop (`Live`, `Copied.`, `Reconnecting…`). */
const ONE_WORD = /^\p{Lu}\p{Ll}+[.…!?:]?$/u;

/** The literals of `source` that hold human text, as `line: text`. */
export function literalText(source: string, { js = false, allowed = new Set<string>() } = {}): string[] {
  const kind = js ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(js ? 'x.js' : 'x.ts', source, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const at = (n: ts.Node, text: string) =>
    found.push(`${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${text}`);
  const isText = (s: string) => !allowed.has(s) && (TWO_WORDS.test(s) || (js && ONE_WORD.test(s)));
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isLiteralTypeNode(n)) return;
    if (ts.isPropertyAssignment(n) && n.name.getText() === 'description') return;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
      if (isText(n.text)) at(n, n.text);
    } else if (ts.isTemplateExpression(n)) {
      const parts = [n.head.text, ...n.templateSpans.map((s) => s.literal.text)];
      if (parts.some((p) => TWO_WORDS.test(p) || WORD_BY_SLOT.test(p))) at(n, parts.join('…'));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}
