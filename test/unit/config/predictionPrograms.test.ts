import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';

const PROGRAM = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';

describe('prediction.program_ids', () => {
  it('defaults to none (every prediction transaction refused by the guard) and takes addresses', () => {
    expect(parseConfigText('', 'c.yaml', {}, '/').prediction.program_ids).toEqual([]);
    expect(parseConfigText(`prediction: { program_ids: [${PROGRAM}] }`, 'c.yaml', {}, '/').prediction.program_ids).toEqual([PROGRAM]);
  });

  it('refuses what is not a base58 address, with the position and the field path', () => {
    let error: unknown;
    try {
      parseConfigText('prediction:\n  program_ids:\n    - not-an-address\n', 'c.yaml', {}, '/');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/^c\.yaml:3:7: prediction\.program_ids\[0\]: must be a base58 Solana address/m);
  });
});
