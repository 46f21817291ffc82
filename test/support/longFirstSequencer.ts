/**
 * Starts the few test files that each take tens of seconds before all others. On a two-core
 * machine two workers share the suite: a long file picked up last keeps one worker busy alone at
 * the end while the other has nothing left. Vitest orders by the durations it cached from earlier
 * runs, but a fresh clone (CI) has no cache, and then it orders by file size, which put the
 * half-minute paper day among the last files. The rest keep vitest's own order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first (seconds on an idle two-core machine in brackets). */
export const LONG_FILES: readonly string[] = [
  'test/crash/crash.test.ts', // (~95)
  'test/crash/paperWorld.test.ts', // (~60)
  'test/unit/paper/paperDay.test.ts', // (~30)
  'test/unit/rehearsal/rehearsalDay.test.ts', // (~27)
];

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONG_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return index === -1 ? LONG_FILES.length : index;
    };
    // Array.prototype.sort is stable: files outside the list keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
