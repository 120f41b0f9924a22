/** vitest globalSetup: builds the migrated template database once per run (test/support/template.ts). */
import type { TestProject } from 'vitest/node';
import { buildDatabaseTemplate, type DatabaseTemplate } from './template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { template, teardown } = await buildDatabaseTemplate();
  project.provide('databaseTemplate', template);
  return teardown;
}
