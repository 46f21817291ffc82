// Prints vitest's own totals from its JSON report as the plain closing line CI reads,
// and exits non-zero when the report holds a failure or no test at all.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? '.vitest-report.json', 'utf8'));
const passed = report.numPassedTests ?? 0;
// A file that failed without a failing test (it did not load, or a hook threw) counts once.
// vitest's numFailedTestSuites also counts every describe block around a failed test, so adding
// it would count one failure two or three times.
const brokenFiles = (report.testResults ?? []).filter(
  (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
