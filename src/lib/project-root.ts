/**
 * The repository's root folder (package.json, drizzle/, web/, locales/), absolute, with a trailing
 * separator. This module sits two levels below the root wherever it runs: src/lib/ (tsx), dist/lib/
 * (tsc) and dist/bundle/ (the esbuild bundle that `npm start` runs, scripts/bundle.mjs, where every
 * module shares the bundle's `import.meta.url`). Files found relative to the code must be found
 * through it, never through their own module's URL (docs/operations.md "Start-up").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringProp } from './narrow.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** An absolute path under the repository's root: `fromRoot('web', 'templates')`. */
export function fromRoot(...segments: string[]): string {
  return path.join(PROJECT_ROOT, ...segments);
}

/** This code's version (package.json `version`), or "0.0.0" when it cannot be read. */
export function musterVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8'));
    return stringProp(pkg, 'version') ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
