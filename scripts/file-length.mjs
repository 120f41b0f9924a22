#!/usr/bin/env node
// File-length limit, run by `npm run lint`: no source file under src/, bench/ or scripts/ may have
// more than 400 lines (the architecture's "files small: split past 300"; 400 leaves room for a
// docstring-heavy file). Test files are exempt: a transcribed matrix or a table of cases is long by
// nature. Prints every file over the limit and exits 1; run from the repository root.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const LIMIT = 400;
const ROOTS = ['src', 'bench', 'scripts'];
const EXTENSIONS = new Set(['.ts', '.mts', '.js', '.mjs', '.cjs', '.eta']);

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'results') yield* files(file);
    } else if (EXTENSIONS.has(path.extname(entry.name))) yield file;
  }
}

const over = [];
for (const root of ROOTS) {
  for (const file of files(root)) {
    const name = file.split(path.sep).join('/');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > LIMIT) over.push(`${name}: ${lines} lines (limit ${LIMIT}; split it)`);
  }
}
if (over.length > 0) {
  console.error(over.join('\n'));
  process.exit(1);
}
