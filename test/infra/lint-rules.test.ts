/**
 * `npm run lint` enforces the layer table, the module-cycle and routes rules
 * (.dependency-cruiser.cjs), the 400-line limit (scripts/file-length.mjs) and the table writers
 * (scripts/table-writers.mjs). The checkers run here
 * on small fixture trees in a temporary folder: a tree that breaks each rule must fail naming the
 * rule, and the same tree without the offending files must pass.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

let dir: string;

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

function run(cmd: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: dir, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: stdout + stderr });
    });
  });
}

const cruise = () =>
  run(DEPCRUISE, ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err']);
const lengths = () => run(process.execPath, [path.join(ROOT, 'scripts', 'file-length.mjs')]);
const writers = () => run(process.execPath, [path.join(ROOT, 'scripts', 'table-writers.mjs')]);

/** Files that obey every rule: lib ← modules, a module using another, routes → service → repo. */
const CLEAN: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  'src/lib/util.ts': 'export const one = 1;\n',
  'src/modules/a/a.repo.ts': "import { one } from '../../lib/util.js';\nexport const rows = one;\n",
  'src/modules/a/a.service.ts': "import { rows } from './a.repo.js';\nexport const list = rows;\n",
  'src/modules/a/a.routes.ts': "import { list } from './a.service.js';\nexport const route = list;\n",
  'src/modules/b/b.service.ts': "import { list } from '../a/a.service.js';\nexport const other = list;\n",
};

/** Each file breaks one rule. */
const VIOLATIONS: Record<string, [string, string]> = {
  'layer-lib': [
    'src/lib/upward.ts',
    "import { list } from '../modules/a/a.service.js';\nexport const up = list;\n",
  ],
  'routes-call-services': [
    'src/modules/b/b.routes.ts',
    "import { rows } from '../a/a.repo.js';\nexport const r = rows;\n",
  ],
  'no-module-cycle': [
    'src/modules/a/cycle.ts',
    "import { other } from '../b/b.service.js';\nexport const back = other;\n",
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'muster-lint-'));
  for (const [file, text] of Object.entries(CLEAN)) await put(file, text);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('lint rules', { timeout: 240_000 }, () => {
  it('a tree that follows the rules passes both checkers', async () => {
    expect(await cruise()).toMatchObject({ code: 0 });
    expect(await lengths()).toEqual({ code: 0, output: '' });
  });

  it('a forbidden import, a routes file calling a repository and a module cycle each fail, naming the rule', async () => {
    for (const [file, text] of Object.values(VIOLATIONS)) await put(file, text);
    // The cycle needs b → a (already there) and a → b: a/cycle.ts is imported by a's service.
    await put(
      'src/modules/a/a.service.ts',
      "import { rows } from './a.repo.js';\nimport './cycle.js';\nexport const list = rows;\n",
    );
    const result = await cruise();
    expect(result.code).not.toBe(0);
    for (const rule of Object.keys(VIOLATIONS)) expect(result.output).toContain(rule);
    for (const [file] of Object.values(VIOLATIONS)) await rm(path.join(dir, file));
    await put('src/modules/a/a.service.ts', CLEAN['src/modules/a/a.service.ts']!);
    expect(await cruise()).toMatchObject({ code: 0 });
  });

  it('a source file over 400 lines fails the length check, naming it; 400 lines pass', async () => {
    await put('src/lib/long.ts', 'export const x = 1;\n'.repeat(400));
    expect(await lengths()).toEqual({ code: 0, output: '' });
    await put('src/lib/long.ts', 'export const x = 1;\n'.repeat(401));
    const result = await lengths();
    expect(result.code).toBe(1);
    expect(result.output).toContain('src/lib/long.ts: 401 lines');
  });

  it('a write to registrations or people outside the named writers fails, naming file and line', async () => {
    await put(
      'src/modules/participants/record/touch.ts',
      'export const touch = (tx) => tx.execute(`UPDATE registrations SET updated_at = now()`);\n',
    );
    await put(
      'src/modules/registration/lifecycle/writes.ts',
      'export const make = (tx) => tx.insert(people);\n',
    );
    await put(
      'src/modules/notes/notes.ts',
      '// UPDATE registrations is only mentioned here\nexport const n = 1;\n',
    );
    expect(await writers()).toEqual({ code: 0, output: '' });
    await put(
      'src/modules/notes/bump.ts',
      'export const bump = (tx) =>\n  tx.update(registrations).set({});\n',
    );
    await put('src/demo/people.ts', 'export const sql = `INSERT INTO people (email) VALUES ($1)`;\n');
    const result = await writers();
    expect(result.code).toBe(1);
    expect(result.output).toContain('src/modules/notes/bump.ts:2: writes registrations');
    expect(result.output).toContain('src/demo/people.ts:1: writes people');
    expect(result.output).not.toContain('notes.ts:');
    await rm(path.join(dir, 'src/modules/notes/bump.ts'));
    await rm(path.join(dir, 'src/demo/people.ts'));
    expect(await writers()).toEqual({ code: 0, output: '' });
  });
});
