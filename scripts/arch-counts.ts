/**
 * Architecture counts over src/ (docs/architecture.md "Counts"): `npx tsx scripts/arch-counts.ts`.
 * AST (TypeScript compiler API) for casts, non-null assertions and action strings; text search for
 * table writers, design-file references and numeric-id parsing.
 *
 * - casts: `x as T` and `<T>x`, `as const` excluded; `as unknown as`: a cast of a cast to unknown.
 * - non-null: every `x!`; `rows[0]!`: a `!` on `something[0]`.
 * - action repeats: a route action named again outside its `config` (a context call such as
 *   `ctxOf(deps, request, 'notes.read')` or a shared `action` constant passed to one).
 * - writers: files that insert into, update or delete from `registrations` / `people` (query
 *   builder `.insert(registrations)` … or SQL text `INSERT INTO registrations` …).
 * - id parsers: places turning a path/query id text into a number (`Number(`, `parseInt(`,
 *   `BigInt(` or a `^\d+$`/`^[0-9]+$` test) outside the one parser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const counts = {
  casts: 0,
  asUnknownAs: 0,
  nonNull: 0,
  rows0NonNull: 0,
  actionRepeats: 0,
  contractRefs: 0,
};
const writers = { registrations: new Set<string>(), people: new Set<string>() };
const idParsers: string[] = [];

const WRITE = (table: string) =>
  new RegExp(
    `\\.(insert|update|delete)\\(\\s*${table}\\b|\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+"?${table}"?\\b`,
    'i',
  );
const ID_PARSE =
  /(Number|parseInt|BigInt)\(\s*[a-zA-Z_.]*(params|query|raw|id|Id|ref)\b|\^\\d\+\$|\^\[0-9\]\+\$|\^\\d\{1,|\^\[0-9\]\{1,/;

for (const file of files('src')) {
  const text = readFileSync(file, 'utf8');
  counts.contractRefs += (text.match(/contract §/g) ?? []).length;
  for (const table of ['registrations', 'people'] as const) {
    if (WRITE(table).test(text)) writers[table].add(file);
  }
  text.split('\n').forEach((line, i) => {
    if (ID_PARSE.test(line) && !/^\s*(\*|\/\/)/.test(line)) idParsers.push(`${file}:${i + 1}`);
  });
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const';
      if (!isConst) counts.casts++;
      const inner = node.expression;
      if (ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword) counts.asUnknownAs++;
    }
    if (ts.isNonNullExpression(node)) {
      counts.nonNull++;
      const e = node.expression;
      if (ts.isElementAccessExpression(e) && e.argumentExpression.getText() === '0') counts.rows0NonNull++;
    }
    if (ts.isCallExpression(node) && /^(optionalCtxOf|ctxOf)$/.test(node.expression.getText())) {
      if (node.arguments.length >= 3) counts.actionRepeats++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const out = {
  ...counts,
  writersRegistrations: [...writers.registrations].sort(),
  writersPeople: [...writers.people].sort(),
  idParsers,
};
if (process.argv.includes('--list')) console.log(JSON.stringify(out, null, 2));
else
  console.log(
    JSON.stringify(
      {
        ...counts,
        writersRegistrations: writers.registrations.size,
        writersPeople: writers.people.size,
        idParsers: idParsers.length,
      },
      null,
      2,
    ),
  );
