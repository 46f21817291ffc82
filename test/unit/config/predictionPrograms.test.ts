import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';

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

  it('refuses an unknown router with its position', () => {
    expect(refusal('api:\n  exclude_routers: [jupiterz, raydium]\n')).toMatch(
      /^c\.yaml:2:31: api\.exclude_routers\[1\] must be one of "metis", "jupiterz", "dflow", "okx", "iris" \(got "raydium"\)/m,
    );
  });
});
