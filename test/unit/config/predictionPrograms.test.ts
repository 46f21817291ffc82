import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { strategyLimits, type StrategyLimits } from '../../../src/strategies/strategyLimits.js';

const PROGRAM = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';

/** The message of the ConfigError `text` raises. */
function refusal(text: string): string {
  let error: unknown;
  try {
    parseConfigText(text, 'c.yaml', {}, '/');
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

describe('prediction.program_ids', () => {
  it('defaults to the program public sources name, and takes addresses', () => {
    expect(parseConfigText('', 'c.yaml', {}, '/').prediction.program_ids).toEqual(['3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp']);
    expect(parseConfigText(`prediction: { program_ids: [${PROGRAM}] }`, 'c.yaml', {}, '/').prediction.program_ids).toEqual([PROGRAM]);
  });

  it('refuses what is not a base58 address, with the position and the field path', () => {
    expect(refusal('prediction:\n  program_ids:\n    - not-an-address\n')).toMatch(
      /^c\.yaml:3:7: prediction\.program_ids\[0\]: must be a base58 Solana address/m,
    );
  });
});

describe('guard and router keys', () => {
  it('default to a 3% slippage cap, no platform fee account and every router', () => {
    const config = parseConfigText('', 'c.yaml', {}, '/');
    expect(config.guard).toEqual({ max_slippage_bps: 300, platform_fee_accounts: [], max_fee_bps: 100 });
    expect(config.api.exclude_routers).toEqual([]);
  });

  it('caps vault slippage at guard.max_slippage_bps unless guard.max_vault_slippage_bps says otherwise, 0–10000', () => {
    const limits = (text: string): StrategyLimits => strategyLimits(parseConfigText(text, 'c.yaml', {}, '/').guard);
    expect(limits('')).toEqual({ maxVaultSlippageBps: 300, vaultSlippageKey: 'guard.max_slippage_bps' });
    expect(limits('guard: { max_slippage_bps: 100 }')).toEqual({ maxVaultSlippageBps: 100, vaultSlippageKey: 'guard.max_slippage_bps' });
    expect(limits('guard: { max_slippage_bps: 100, max_vault_slippage_bps: 800 }')).toEqual({
      maxVaultSlippageBps: 800,
      vaultSlippageKey: 'guard.max_vault_slippage_bps',
    });
    expect(refusal('guard:\n  max_vault_slippage_bps: 10001\n')).toMatch(
      /^c\.yaml:2:27: guard\.max_vault_slippage_bps must be at most 10000 \(got number 10001\)/m,
    );
    expect(refusal('guard:\n  max_vault_slipage_bps: 100\n')).toMatch(
      /^c\.yaml:2:3: unknown key "max_vault_slipage_bps" in guard \(did you mean "max_vault_slippage_bps"\?\)/m,
    );
  });

  it('refuses an unknown router with its position', () => {
    expect(refusal('api:\n  exclude_routers: [jupiterz, raydium]\n')).toMatch(
      /^c\.yaml:2:31: api\.exclude_routers\[1\] must be one of "metis", "jupiterz", "dflow", "okx", "iris" \(got "raydium"\)/m,
    );
  });
});
