import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Only our own tests: vitest would otherwise also collect tests in nested node_modules.
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Tests use a manual clock and await events; a long timeout would only hide a hang.
    testTimeout: 20_000,
    pool: 'forks',
    // A lock directory per worker: parallel test files may run daemons on one seed-derived wallet.
    setupFiles: ['test/support/isolateLocks.ts'],
    // The JSON report is what .ci/run reads for its closing "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});
