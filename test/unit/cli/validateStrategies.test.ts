import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/exitCodes.js';
import { checkStrategies } from '../../../src/cli/strategyInputs.js';
import { jupbot, repoRoot } from '../../support/cli.js';

const bad = 'test/fixtures/strategies/invalid';

describe('jupbot validate with strategies', () => {
  it('checks the config and every strategy in strategies_dir', async () => {
    const run = await jupbot(['validate', '--config', 'config/default.yaml']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(ExitCode.Ok);
    expect(run.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ok: config\/default\.yaml \(mode paper\)$/),
        'ok: strategies/sol-dca-daily.yaml (sol-dca-daily, dca)',
        'ok: strategies/lakers-exit.yaml (lakers-exit, prediction-exit)',
        'ok: strategies/sol-take-profit.yaml (sol-take-profit, price-order)',
      ]),
    );
  });

  it('prints every problem of the files and directories given, exit 1', async () => {
    const run = await jupbot([
      'validate',
      '--config',
      'config/default.yaml',
      `${bad}/17-no-exit.yaml`,
      `${bad}/64-many-problems.yaml`,
      'strategies/jup-dca-vault.yaml',
      'nowhere.yaml',
    ]);
    expect(run.code).toBe(ExitCode.InvalidInput);
    expect(run.stdout).toContain('ok: strategies/jup-dca-vault.yaml (jup-dca-vault, dca)');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'nowhere.yaml: no such file or directory',
      `${bad}/17-no-exit.yaml:3:7: a price-order needs at least one of take_profit, stop_loss or trailing_stop`,
      `${bad}/64-many-problems.yaml:5:9: amount: 25 must be quoted ("25" tokens, or a share such as "50%"), so every digit is kept`,
      `${bad}/64-many-problems.yaml:6:12: execution must be one of "swap", "vault" (got "swapp")`,
      `${bad}/64-many-problems.yaml:9:13: schedule.timezone: "Mars/Olympus" is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`,
      `${bad}/64-many-problems.yaml:10:1: unknown key "catchup" (did you mean "catch_up"?)`,
    ]);
  });

  it('validates a whole directory: the invalid corpus fails file by file', async () => {
    const run = await jupbot(['validate', '--config', 'config/default.yaml', bad]);
    expect(run.code).toBe(ExitCode.InvalidInput);
    expect(run.stdout).not.toMatch(/ok: test\/fixtures/);
    expect(run.stderr).toContain(`${bad}/59-token-unverified.yaml:4:7: sell: "MOONRUG" matches no verified token`);
  });

  it("refuses a vault strategy asking more slippage than the config's vault cap, at the field that asks", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-validate-slippage-'));
    try {
      writeFileSync(join(dir, 'c.yaml'), 'mode: paper\nstrategies_dir: .\nguard:\n  max_slippage_bps: 500\n  max_vault_slippage_bps: 100\n');
      const strategy = (stop: number): string =>
        `name: sol-exit\nkind: price-order\nsell: SOL\namount: "1"\ntake_profit:\n  - at: "200"\n    slippage_bps: 80\nstop_loss:\n  at: "120"\n  slippage_bps: ${stop}\n`;
      writeFileSync(join(dir, 's.yaml'), strategy(150));
      const over = await jupbot(['validate', '--config', 'c.yaml', 's.yaml'], { cwd: dir });
      expect(over.code).toBe(ExitCode.InvalidInput);
      expect(over.stderr.trimEnd().split('\n')).toEqual([
        's.yaml:10:17: stop_loss.slippage_bps (150) is above guard.max_vault_slippage_bps (100), the most slippage a vault order may carry: lower it, or raise the cap in the config',
      ]);
      writeFileSync(join(dir, 's.yaml'), strategy(100));
      const atCap = await jupbot(['validate', '--config', 'c.yaml', 's.yaml'], { cwd: dir });
      expect([atCap.code, atCap.stderr]).toEqual([ExitCode.Ok, '']);
      expect(atCap.stdout).toContain('ok: s.yaml (sol-exit, price-order)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks schema and rules only in live mode, where the daemon resolves tokens', async () => {
    const live = await checkStrategies(['strategies/sol-take-profit.yaml', `${bad}/59-token-unverified.yaml`], repoRoot, {
      mode: 'live',
      guard: { max_slippage_bps: 300, platform_fee_accounts: [], max_fee_bps: 100 },
    });
    expect(live.resolved).toBe(false);
    expect(live.outcomes.map((o) => [o.file, o.diagnostics.length, o.spec?.name, o.strategy])).toEqual([
      ['strategies/sol-take-profit.yaml', 0, 'sol-take-profit', undefined],
      [`${bad}/59-token-unverified.yaml`, 0, 'po', undefined],
    ]);
  });
});
