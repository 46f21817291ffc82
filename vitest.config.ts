import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { LongFirstSequencer } from './test/support/longFirstSequencer.js';

const TESTS = 'test/**/*.test.ts';

/**
 * Test files that replace a module (vi.mock) or patch node's http for the whole process (nock) run
 * in a fresh module registry each; every other file shares its worker's registry with the files
 * before it. Loading @solana/web3.js, zod schemas and the simulator afresh for each of 200 files
 * cost a third of the suite's time. A module mocked in a shared registry would not reach the modules
 * already loaded, and nock stays active once imported, intercepting the next file's loopback calls.
 */
function needsOwnRegistry(file: string): boolean {
  const text = readFileSync(join(import.meta.dirname, file), 'utf8');
  return /\bvi\.(mock|doMock|unmock)\(/.test(text) || /from 'nock'/.test(text);
}

const isolated = readdirSync(join(import.meta.dirname, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => join('test', file).split('\\').join('/'))
  .filter(needsOwnRegistry)
  .sort();

export default defineConfig({
  test: {
    environment: 'node',
    // Tests use a manual clock and await events; a long timeout would only hide a hang.
    testTimeout: 20_000,
    pool: 'forks',
    // One test file per core. Vitest's default (one fewer than the cores) runs the suite in a single
    // worker on a two-core CI machine: 505 s there, 286 s with both cores, every test still passing.
    maxWorkers: availableParallelism(),
    // The long files start first, whatever vitest cached from an earlier run (see the sequencer).
    sequence: { sequencer: LongFirstSequencer },
    // A lock directory per worker: parallel test files may run daemons on one seed-derived wallet.
    setupFiles: ['test/support/isolateLocks.ts'],
    // The JSON report is what .ci/run reads for its closing "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    // Only our own tests (vitest would otherwise also collect tests in nested node_modules), in two
    // projects that differ only in how each file's modules are loaded.
    projects: [
      { extends: true, test: { name: 'shared', include: [TESTS], exclude: isolated, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
