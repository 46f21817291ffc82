#!/usr/bin/env node
import { systemClock } from '../clock.js';
import { runCli } from './index.js';
import { shutdownOnSignals } from './signals.js';

// The `jupbot` binary: the only place that touches process for the CLI.
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTerminal: process.stdout.isTTY,
  env: process.env,
  cwd: process.cwd(),
  clock: systemClock,
  shutdown: shutdownOnSignals(process),
  onFatal: (listener) => {
    process.on('uncaughtException', listener);
    process.on('unhandledRejection', listener);
    return () => {
      process.off('uncaughtException', listener);
      process.off('unhandledRejection', listener);
    };
  },
});
process.exitCode = code;
