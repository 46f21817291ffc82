import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Only our own tests: vitest would otherwise also collect tests in nested node_modules.
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Tests use a manual clock and await events; a long timeout would only hide a hang.
    testTimeout: 20_000,
    pool: 'forks',
    // One test file per core. Vitest's default (one fewer than the cores) runs the suite in a single
    // worker on a two-core CI machine: 505 s there, 286 s with both cores, every test still passing.
    maxWorkers: availableParallelism(),
    // A lock directory per worker: parallel test files may run daemons on one seed-derived wallet.
    setupFiles: ['test/support/isolateLocks.ts'],
    // The JSON report is what .ci/run reads for its closing "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});
