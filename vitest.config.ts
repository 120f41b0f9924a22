import { defineConfig } from 'vitest/config';

/**
 * Suites that run CLI commands in this process (they set process.env for them): own process each.
 * The CLI suites under test/cli/ run the CLI as subprocesses and the browser suites drive Chromium
 * as one; they change no process-wide state and share their worker like the app files.
 */
const PROCESS_SUITES = ['test/sessions/cli-revoke.test.ts'];

export default defineConfig({
  test: {
    // Builds the migrated database each test file's database is copied from (test/support/template.ts).
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Three workers on a 2-core machine: files spend part of their time waiting (job-queue polling,
    // SMTP delivery, a browser, a subprocess), which a third worker fills. Back to back on the shared
    // 2-core machine, the whole embedded suite: 511 s with two, 467 s with three.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // App-level test files share their worker process (and so its module cache and the compiled
        // PGlite WebAssembly) instead of starting a new process and re-importing the app for each
        // file: ~2 s of CPU per file. They stay independent because each builds its own app on its
        // own database, and module-level state in src/ is keyed by the app's dependencies (WeakMaps).
        test: { name: 'app', include: ['test/**/*.test.ts'], exclude: PROCESS_SUITES, isolate: false },
      },
      { extends: true, test: { name: 'process', include: PROCESS_SUITES, isolate: true } },
    ],
  },
});
