// The static checks of `npm test` (typecheck, lint, format), started together: each is one
// single-threaded process, and one after another they left a core idle for over a minute. Each
// check's output is held back and printed whole when it ends, under a header naming it, so the
// three never interleave; the exit status is non-zero when any of them failed.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** Longest first: on two cores, lint runs alone on one while the other two share the second. */
const CHECKS = [
  { name: 'lint', command: 'eslint', args: ['--max-warnings', '0', '.'] },
  { name: 'typecheck', command: 'tsc', args: ['--noEmit'] },
  { name: 'format:check', command: 'prettier', args: ['--check', '.'] },
];

function run({ name, command, args }) {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    // The binaries in node_modules/.bin, as npm scripts find them.
    const child = spawn(`node_modules/.bin/${command}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    let done = false;
    const finish = (ok, detail) => {
      if (done) return;
      done = true;
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      process.stdout.write(`\n> ${name} (${[command, ...args].join(' ')}): ${ok ? 'passed' : `FAILED (${detail})`} in ${seconds} s\n`);
      if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      resolve(ok);
    };
    child.on('error', (error) => finish(false, error.message));
    child.on('close', (code, signal) => finish(code === 0, signal ?? `exit code ${code}`));
  });
}

const results = await Promise.all(CHECKS.map(run));
const failed = CHECKS.filter((_, i) => !results[i]).map((c) => c.name);
if (failed.length > 0) {
  process.stderr.write(`\nstatic checks failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
