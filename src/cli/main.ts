#!/usr/bin/env node
import { systemClock } from '../clock.js';
import { runCli } from './index.js';

// The `jupbot` binary: the only place that touches process for the CLI.
// The first SIGINT/SIGTERM asks for a clean stop; a second one while stopping forces the exit.
const shutdown = new AbortController();
const onSignal = (signal: NodeJS.Signals): void => {
  if (shutdown.signal.aborted) {
    process.stderr.write(`jupbot: second ${signal}, exiting now\n`);
    process.exit(130);
  }
  shutdown.abort(new Error(`received ${signal}`));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  clock: systemClock,
  shutdown: shutdown.signal,
});
process.exitCode = code;
