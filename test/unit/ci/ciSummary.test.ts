/**
 * The closing line of `.ci/run`: vitest's own totals, each failure counted once.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'jupbot-ci-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function summarise(report: object): { line: string; code: number | null } {
  const file = join(dir, 'report.json');
  writeFileSync(file, JSON.stringify(report));
  const run = spawnSync(process.execPath, [join(repoRoot, '.ci', 'summary.js'), file], { encoding: 'utf8' });
  return { line: run.stdout.trim(), code: run.status };
}

/** A vitest JSON report: the totals, and each file's status with its tests' statuses. */
function report(totals: { passed: number; failed?: number; failedSuites?: number; pending?: number }, files: [string, string[]][]): object {
  return {
    numPassedTests: totals.passed,
    numFailedTests: totals.failed ?? 0,
    numFailedTestSuites: totals.failedSuites ?? 0,
    numPendingTests: totals.pending ?? 0,
    numTodoTests: 0,
    testResults: files.map(([status, tests]) => ({ status, assertionResults: tests.map((t) => ({ status: t })) })),
  };
}

describe('.ci/summary.js', () => {
  it('counts a failed test once, however many describe blocks hold it', () => {
    // What vitest wrote for two failed tests inside one describe of one file.
    const twoFailed = report({ passed: 1, failed: 2, failedSuites: 2 }, [['failed', ['failed', 'failed', 'passed']]]);
    expect(summarise(twoFailed)).toEqual({ line: '1 passed, 2 failed', code: 1 });
  });

  it('counts a file that failed to load as one failure, and names skipped tests', () => {
    const notLoaded = report({ passed: 5, failedSuites: 1, pending: 3 }, [
      ['failed', []],
      ['passed', ['passed']],
    ]);
    expect(summarise(notLoaded)).toEqual({ line: '5 passed, 1 failed, 3 skipped', code: 1 });
  });

  it('passes only with tests that passed and none that failed', () => {
    expect(summarise(report({ passed: 4 }, [['passed', ['passed']]]))).toEqual({ line: '4 passed, 0 failed', code: 0 });
    expect(summarise(report({ passed: 0 }, []))).toEqual({ line: '0 passed, 0 failed', code: 1 });
  });
});
