// The checks of `npm test`, started together: the typecheck and lint on one TypeScript program
// (typeLint.js), the format check, and with `--tests` the test suite. Each is mostly one busy
// process, and one after another they left a core idle: on a 2-core machine the static checks took
// 100 s before the first test ran. The checks' output is held back and printed whole when each
// ends, under a header naming it, so they never interleave; the tests print as they run. The exit
// status is non-zero when any of them failed.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const CHECKS = [
  { name: 'typecheck and lint', command: process.execPath, args: ['scripts/typeLint.js'] },
  { name: 'format:check', command: 'node_modules/.bin/prettier', args: ['--check', '.'] },
];
const TESTS = { name: 'tests', command: 'node_modules/.bin/vitest', args: ['run'], live: true };

function run({ name, command, args, live = false }) {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'] });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    let done = false;
    const finish = (ok, detail) => {
      if (done) return;
      done = true;
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      const shown = [command === process.execPath ? 'node' : command.replace('node_modules/.bin/', ''), ...args].join(' ');
      process.stdout.write(`\n> ${name} (${shown}): ${ok ? 'passed' : `FAILED (${detail})`} in ${seconds} s\n`);
      if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      resolve(ok);
    };
    child.on('error', (error) => finish(false, error.message));
    child.on('close', (code, signal) => finish(code === 0, signal ?? `exit code ${code}`));
  });
}

const all = process.argv.includes('--tests') ? [...CHECKS, TESTS] : CHECKS;
const results = await Promise.all(all.map(run));
const failed = all.filter((_, i) => !results[i]).map((c) => c.name);
if (failed.length > 0) {
  process.stderr.write(`\nfailed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
