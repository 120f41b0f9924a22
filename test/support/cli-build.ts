/**
 * The `muster` CLI as the tests run it: the bundle in dist/bundle/ built from tsc's output by
 * scripts/bundle.mjs (what `npm start` and the package's bin run), started with plain Node. A subprocess through tsx cost about 2.7 s more CPU
 * per command (the tsx CLI starts a second Node process and compiles every module it loads), and
 * the CLI suites start some hundred commands.
 *
 * `ensureCliBuilt()` (vitest globalSetup) keeps dist/ current: when a file under src/ is newer than
 * dist/.tsbuildinfo, it runs the incremental build (`tsc -p tsconfig.build.json`) and the bundle first, so an edit
 * is never tested against stale JavaScript. `npm install` and `npm ci` build dist/ already (the
 * `prepare` script), so a fresh checkout does not build twice.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD_INFO = path.join(ROOT, 'dist', '.tsbuildinfo');

/** Absolute path of the bundled CLI entry point (scripts/bundle.mjs): what bin/muster.js runs. */
export const CLI_MAIN = path.join(ROOT, 'dist', 'bundle', 'main.js');

/** Node arguments that run `muster <args>` (spawn with process.execPath). */
export function cliArgs(args: readonly string[]): string[] {
  return [CLI_MAIN, ...args];
}

/** Newest modification time (ms) of any file under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(file) : statSync(file).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/** Builds dist/ when it is missing or older than src/; returns whether it built. */
export function ensureCliBuilt(): boolean {
  const built = existsSync(CLI_MAIN) && existsSync(BUILD_INFO) ? statSync(BUILD_INFO).mtimeMs : 0;
  if (built >= newestMtime(path.join(ROOT, 'src'))) return false;
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    // tsc emits despite type errors (npm run typecheck reports them); only a missing output is fatal.
    if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw error;
  }
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle.mjs')], { cwd: ROOT, stdio: 'pipe' });
  const now = new Date();
  utimesSync(BUILD_INFO, now, now); // an incremental build that wrote nothing leaves its old time
  return true;
}
