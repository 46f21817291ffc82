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

const test = (status: string) => ({ status });

describe('.ci/summary.js', () => {
  it('counts a failed test once, however many describe blocks hold it', () => {
    // What vitest wrote for two failed tests inside one describe of one file.
    const report = {
      numPassedTests: 1,
      numFailedTests: 2,
      numFailedTestSuites: 2,
      numPendingTests: 0,
      numTodoTests: 0,
      testResults: [{ status: 'failed', assertionResults: [test('failed'), test('failed'), test('passed')] }],
    };
    expect(summarise(report)).toEqual({ line: '1 passed, 2 failed', code: 1 });
  });

  it('counts a file that failed to load as one failure, and names skipped tests', () => {
    const report = {
      numPassedTests: 5,
      numFailedTests: 0,
      numFailedTestSuites: 1,
      numPendingTests: 3,
      numTodoTests: 0,
      testResults: [
        { status: 'failed', assertionResults: [] },
        { status: 'passed', assertionResults: [test('passed')] },
      ],
    };
    expect(summarise(report)).toEqual({ line: '5 passed, 1 failed, 3 skipped', code: 1 });
  });

  it('passes only with tests that passed and none that failed', () => {
    const clean = { numPassedTests: 4, numFailedTests: 0, testResults: [{ status: 'passed', assertionResults: [test('passed')] }] };
    expect(summarise(clean)).toEqual({ line: '4 passed, 0 failed', code: 0 });
    expect(summarise({ numPassedTests: 0, numFailedTests: 0, testResults: [] })).toEqual({ line: '0 passed, 0 failed', code: 1 });
  });
});
