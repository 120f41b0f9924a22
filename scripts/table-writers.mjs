#!/usr/bin/env node
// One writer per table, run by `npm run lint` (docs/architecture.md "Write model"): `registrations`
// and `people` are inserted into, updated or deleted from only by the writer modules named below.
// A write is a query-builder call (`.insert(registrations)`, `.update(people)`, `.delete(…)`) or SQL
// text (`INSERT INTO registrations`, `UPDATE people`, `DELETE FROM …`) outside a comment line.
// Prints every offending line and exits 1; run from the repository root.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Folders (under src/) allowed to write each table. */
export const WRITERS = {
  registrations: [
    'src/modules/participants/record/',
    'src/modules/registration/lifecycle/',
    'src/modules/checkin/',
  ],
  people: ['src/modules/participants/record/', 'src/modules/registration/lifecycle/'],
};

const write = (table) =>
  new RegExp(
    `\\.(insert|update|delete)\\(\\s*${table}\\b|\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+"?${table}"?\\b`,
    'i',
  );

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) yield file;
  }
}

const offences = [];
for (const file of files('src')) {
  const name = file.split(path.sep).join('/');
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const [table, allowed] of Object.entries(WRITERS)) {
    if (allowed.some((dir) => name.startsWith(dir))) continue;
    const pattern = write(table);
    lines.forEach((line, i) => {
      if (pattern.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line))
        offences.push(`${name}:${i + 1}: writes ${table} outside its writers (${allowed.join(', ')})`);
    });
  }
}
if (offences.length > 0) {
  console.error(offences.join('\n'));
  process.exit(1);
}
