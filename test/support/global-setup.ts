/**
 * vitest globalSetup: rebuilds dist/ when src/ is newer (test/support/cli-build.ts), then builds the
 * migrated template database once per run (test/support/template.ts).
 */
import type { TestProject } from 'vitest/node';
import { ensureCliBuilt } from './cli-build.js';
import { buildDatabaseTemplate, type DatabaseTemplate } from './template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureCliBuilt(); // the CLI suites run dist/ (test/support/cli-build.ts)
  const { template, teardown } = await buildDatabaseTemplate();
  project.provide('databaseTemplate', template);
  return teardown;
}
