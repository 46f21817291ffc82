import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { CliContext } from '../../../src/cli/context.js';
import { CliExit } from '../../../src/cli/context.js';
import { ExitCode } from '../../../src/exitCodes.js';
import { validateCommand } from '../../../src/cli/validate.js';

const repo = resolve(import.meta.dirname, '../../..');

/** Runs `jupbot validate ARGS` in-process; returns what it printed and the exit code it chose. */
async function runValidate(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; exitCode: number; reason: string }> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    cwd: repo,
    clock: new ManualClock(),
  };
  const command = validateCommand(ctx).exitOverride();
  try {
    await command.parseAsync(args, { from: 'user' });
    return { stdout, stderr, exitCode: ExitCode.Ok, reason: '' };
  } catch (error) {
    if (error instanceof CliExit) return { stdout, stderr, exitCode: error.exitCode, reason: error.message };
    throw error;
  }
}

describe('jupbot validate', () => {
  it('prints exactly the three problems of a file with a misspelt key, a wrong type and a bad duration, and exits 1', async () => {
    const file = 'test/fixtures/config/three-problems.yaml';
    const result = await runValidate(['--config', file]);
    expect(result.exitCode).toBe(ExitCode.InvalidInput);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      `${file}:4:24: api.requests_per_second must be a number (got string "fast")`,
      `${file}:6:11: poll.prices: "10 seconds" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)`,
      `${file}:7:3: unknown key "positons" in poll (did you mean "positions"?)`,
      '',
    ]);
  });

  it('prints one ok line for a valid config, then one per strategy file in its strategies_dir', async () => {
    const result = await runValidate(['--config', 'config/default.yaml']);
    expect(result).toMatchObject({ stderr: '', exitCode: ExitCode.Ok, reason: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('ok: config/default.yaml (mode paper)');
    expect(lines.slice(1).every((line) => /^ok: strategies\/[a-z0-9-]+\.yaml \([a-z0-9-]+, (price-order|dca|prediction-exit)\)$/.test(line))).toBe(true);
  });

  it('validates config/default.yaml when neither --config nor JUPBOT_CONFIG is given', async () => {
    const result = await runValidate([]);
    expect(result.stdout).toMatch(/^ok: config\/default\.yaml \(mode paper\)\n/);
  });

  it('takes the file from JUPBOT_CONFIG when --config is not given', async () => {
    const result = await runValidate([], { JUPBOT_CONFIG: 'test/fixtures/config/three-problems.yaml' });
    expect(result.exitCode).toBe(ExitCode.InvalidInput);
    expect(result.stderr).toContain('test/fixtures/config/three-problems.yaml:4:24: ');
  });

  it('reports a missing file in one line with exit code NotFound', async () => {
    const result = await runValidate(['--config', 'config/nope.yaml']);
    expect(result.exitCode).toBe(ExitCode.NotFound);
    expect(result.reason).toBe(`config file not found: config/nope.yaml (${repo}/config/nope.yaml), named by --config`);
  });

  it('checks the strategy files and directories it is given', async () => {
    const result = await runValidate(['strategies/sol-dca-daily.yaml']);
    expect(result.stdout).toBe('ok: config/default.yaml (mode paper)\nok: strategies/sol-dca-daily.yaml (sol-dca-daily, dca)\n');
    expect(result.exitCode).toBe(ExitCode.Ok);
  });
});
