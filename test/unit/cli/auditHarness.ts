/** Runs `jupbot audit …` in-process, as src/cli/index.ts wires it, for the audit command tests. */
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { ManualClock } from '../../../src/clock.js';
import { auditCommand } from '../../../src/cli/audit.js';
import { CliExit, type CliContext } from '../../../src/cli/context.js';
import { ExitCode } from '../../../src/exitCodes.js';

export const START = Date.UTC(2026, 0, 1);

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  error?: unknown;
}

export async function audit(args: string[], options: { cwd?: string } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    cwd: options.cwd ?? '/',
    clock: new ManualClock(START + 3_600_000),
  };
  const resolveDb = ({ db }: { db?: string }): Promise<string> => Promise.resolve(db ?? join(ctx.cwd, 'data', 'jupbot-paper.sqlite'));
  const program = new Command('jupbot').exitOverride().configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr });
  program.addCommand(auditCommand(ctx, resolveDb));
  for (const command of program.commands) {
    command.exitOverride().configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr });
    for (const sub of command.commands) sub.exitOverride().configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr });
  }
  try {
    await program.parseAsync(['audit', ...args], { from: 'user' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error instanceof CliExit) return { code: error.exitCode, stdout, stderr: stderr + error.message, error };
    if (error instanceof CommanderError) return { code: ExitCode.Usage, stdout, stderr, error };
    return { code: -1, stdout, stderr, error };
  }
}
