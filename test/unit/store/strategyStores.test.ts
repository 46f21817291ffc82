import { describe, expect, it } from 'vitest';
import { StrategyVersions } from '../../../src/store/strategyVersions.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { freshStore } from './helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const sha = (c: string): string => c.repeat(64);

describe('StrategyVersions', () => {
  it('numbers each new text and reuses the number of a text seen before', () => {
    const versions = new StrategyVersions(freshStore().db);
    const v = (c: string, at: number) => versions.record({ strategy: 's', sha256: sha(c), yaml: `v${c}`, sourceFile: 's.yaml' }, at);
    expect(v('a', 1)).toEqual({ version: 1, created: true });
    expect(v('b', 2)).toEqual({ version: 2, created: true });
    expect(v('a', 3)).toEqual({ version: 1, created: false });
    expect(versions.latest('s')).toMatchObject({ version: 2, sha256: sha('b'), yaml: 'vb', appliedAt: 2 });
    expect(versions.record({ strategy: 'other', sha256: sha('a'), yaml: 'va', sourceFile: 'o.yaml' }, 4).version).toBe(1);
  });
});

describe('TokenPins', () => {
  it('pins a symbol once and never moves it', () => {
    const pins = new TokenPins(freshStore().db);
    expect(pins.pin({ strategy: 's', symbol: 'SOL', mint: SOL, decimals: 9 }, 10)).toBe(true);
    expect(pins.pin({ strategy: 's', symbol: 'SOL', mint: 'Other1111111111111111111111111111111', decimals: 6 }, 20)).toBe(false);
    expect(pins.get('s', 'SOL')).toEqual({ mint: SOL, decimals: 9 });
    expect(pins.get('t', 'SOL')).toBeUndefined();
    expect(pins.list('s')).toEqual([{ strategy: 's', symbol: 'SOL', mint: SOL, decimals: 9, pinnedAt: 10 }]);
  });
});
