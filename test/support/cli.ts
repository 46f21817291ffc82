import { resolve } from 'node:path';
import { ManualClock, type Clock } from '../../src/clock.js';
import { runCli } from '../../src/cli/index.js';

/** The repository root, for paths to config/ and fixtures. */
export const repoRoot = resolve(import.meta.dirname, '../..');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `jupbot ARGS` in-process, exactly as the binary would, and returns what it printed. */
export async function jupbot(
  args: readonly string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    clock?: Clock;
    shutdown?: AbortSignal;
    onStdout?: (text: string) => void;
    stdin?: string;
    onFatal?: (listener: (error: unknown) => void) => () => void;
    /** How live-mode commands reach Jupiter and the node (the simulator, counted). */
    network?: typeof globalThis.fetch;
  } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
      options.onStdout?.(text);
    },
    stderr: (text) => (stderr += text),
    env: options.env ?? {},
    cwd: options.cwd ?? repoRoot,
    clock: options.clock ?? new ManualClock(),
    ...(options.shutdown ? { shutdown: options.shutdown } : {}),
    ...(options.stdin === undefined ? {} : { stdin: () => Promise.resolve(options.stdin as string) }),
    ...(options.onFatal ? { onFatal: options.onFatal } : {}),
    ...(options.network ? { network: options.network } : {}),
  });
  return { code, stdout, stderr };
}
