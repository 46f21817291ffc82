#!/usr/bin/env node
import { systemClock } from '../clock.js';
import { guardStdout } from './closedStdout.js';
import { runCli } from './index.js';
import { shutdownOnSignals } from './signals.js';

// The `jupbot` binary: the only place that touches process for the CLI.
const stdout = guardStdout(process.stdout);
const code = await runCli(process.argv.slice(2), {
  stdout: stdout.write,
  stderr: (text) => process.stderr.write(text),
  stdoutIsTerminal: process.stdout.isTTY,
  env: process.env,
  cwd: process.cwd(),
  clock: systemClock,
  // A reader closing stdout stops a long-running command as a signal does.
  shutdown: AbortSignal.any([shutdownOnSignals(process), stdout.closed]),
  onFatal: (listener) => {
    process.on('uncaughtException', listener);
    process.on('unhandledRejection', listener);
    return () => {
      process.off('uncaughtException', listener);
      process.off('unhandledRejection', listener);
    };
  },
});
process.exitCode = stdout.exitCode(code);
