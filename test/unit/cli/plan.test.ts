import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { CliExit } from '../../../src/cli/context.js';
import { planCommand } from '../../../src/cli/plan.js';
import { repoRoot } from '../../support/cli.js';

async function plan(args: string[]): Promise<{ stdout: string; stderr: string; exit: number }> {
  let stdout = '';
  let stderr = '';
  const ctx = {
    stdout: (t: string) => (stdout += t),
    stderr: (t: string) => (stderr += t),
    env: {},
    cwd: repoRoot,
    clock: new ManualClock(Date.UTC(2026, 5, 1, 6)),
  };
  const program = new Command('jupbot').exitOverride().addCommand(planCommand(ctx));
  try {
    await program.parseAsync(['plan', ...args], { from: 'user' });
    return { stdout, stderr, exit: 0 };
  } catch (error) {
    if (error instanceof CliExit) return { stdout, stderr, exit: error.exitCode };
    throw error;
  }
}

describe('jupbot plan', () => {
  it('describes each example in plain words, with what it would do now', async () => {
    const run = await plan(['--config', 'config/default.yaml']);
    expect(run.exit).toBe(0);
    expect(run.stdout).toContain('plan at 2026-06-01T06:00:00.000Z (paper mode');
    expect(run.stdout).toContain('sol-take-profit (price-order) — strategies/sol-take-profit.yaml');
    expect(run.stdout).toContain(
      '  take_profit[0]: when SOL rises to $180 (+20% from reference_price_usd), sell 50% of the amount, as an OCO with the stop loss',
    );
    expect(run.stdout).toContain('  next run: 2026-06-01T07:00:00.000Z (Mon 09:00 Europe/Berlin)');
    expect(run.stdout).toContain(
      '  safe-lead-late: sell 50% of the position when the side held leads by 12+ and it is period 4 or later and 6m of the period are played',
    );
    expect(run.stdout).toContain('  now: held (trailing_stop) — needs 2500000000000 base units of BONK, the balance is 0');
    expect(run.stdout).toContain('  now: held (take_profit[0]) — nothing to sell: the amount is 0 (SOL balance 0)');
  });

  it('plans the valid files and reports the invalid ones, exit 1', async () => {
    const run = await plan(['--config', 'config/default.yaml', 'strategies/sol-dca-daily.yaml', 'test/fixtures/strategies/invalid/17-no-exit.yaml']);
    expect(run.exit).toBe(1);
    expect(run.stdout).toContain('sol-dca-daily (dca)');
    expect(run.stderr).toBe(
      'test/fixtures/strategies/invalid/17-no-exit.yaml:3:7: a price-order needs at least one of take_profit, stop_loss or trailing_stop\n',
    );
  });
});
