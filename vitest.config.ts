import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the migrated database each test file's database is copied from (test/support/template.ts).
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Test files share their worker process (and so its module cache and the compiled PGlite
    // WebAssembly) instead of starting a new process and re-importing the app for each file: ~2 s of
    // CPU per file. Files stay independent because each builds its own app on its own database, and
    // module-level state in src/ is keyed by the app's dependencies (WeakMaps), never global.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
