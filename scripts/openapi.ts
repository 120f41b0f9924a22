/**
 * Writes the OpenAPI document generated from the route schemas to openapi/openapi.json, or with
 * `--check` fails (exit 1) when the committed file differs — CI runs the check.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/server.js';

const target = new URL('../openapi/openapi.json', import.meta.url);
const deps = await createDeps(loadConfig({ MUSTER_DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }));
const app = await buildApp(deps);
const doc = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
await deps.close();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {}
  if (committed !== doc) {
    console.error('openapi/openapi.json is stale: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  console.log('openapi/openapi.json is up to date.');
} else {
  mkdirSync(new URL('.', target), { recursive: true });
  writeFileSync(target, doc);
  console.log(`Wrote ${target.pathname}`);
}
