/**
 * Test-file order of a run: vitest's own order (files that failed last time, then the longest
 * first, from its cache; unknown files by size) with the `process` project's files moved to the
 * front, the CLI suites first. They are the longest files of the suite (a CLI suite runs one
 * subprocess after another for minutes), and vitest would otherwise start them last, after every
 * `app` file, so the run ended with one worker busy and the other idle.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

function rank(spec: TestSpecification): number {
  if (spec.project.name !== 'process') return 2;
  return spec.moduleId.includes('/test/cli/') ? 0 : 1;
}

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted.sort((a, b) => rank(a) - rank(b)); // stable: vitest's order within each rank
  }
}
