#!/usr/bin/env node
// The server as one ES module (plus lazily loaded chunks), built by `npm run build` after tsc:
// dist/bundle/main.js, what bin/muster.js (`npm start`, the `muster` CLI) runs. Node's ESM loader
// then resolves and compiles a handful of files at start-up instead of some 1,500 (our ~490 and
// the libraries'): issue 32 item 4, the 2-second restart; docs/operations.md "Start-up".
// Input is tsc's output (dist/cli/main.js), so the bundle runs exactly what tsc emitted.
// Kept outside the bundle, loaded from node_modules at run time:
// - packages that read their own files relative to their module (WebAssembly, fonts, static assets),
// - heavy packages loaded only on first use (lazyModule, dynamic import),
// - pino, whose transports start worker threads by file name.
// Files of the repository (drizzle/, web/, locales/, package.json) are found through
// src/lib/project-root.ts, which sits two levels below the root in src/, dist/ and dist/bundle/.
import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'dist', 'bundle');

export const EXTERNAL = [
  '@electric-sql/*',
  '@faker-js/faker',
  '@fastify/swagger-ui',
  'exceljs',
  'highs',
  'pdfkit',
  'pg-native',
  'pino',
  'pino-*',
  'thread-stream',
  'yazl',
  'zxing-wasm',
  'zxing-wasm/*',
];

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: { main: path.join(ROOT, 'dist', 'cli', 'main.js') },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS libraries inside the bundle call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __muster_createRequire } from 'node:module'; const require = __muster_createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
});
// The embedded database's worker thread is started by file name (src/db/embedded/embedded.ts).
copyFileSync(
  path.join(ROOT, 'dist', 'db', 'embedded', 'pglite-worker.mjs'),
  path.join(OUT, 'pglite-worker.mjs'),
);
