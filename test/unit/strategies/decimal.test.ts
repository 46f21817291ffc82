import { describe, expect, it } from 'vitest';
import { applyChange, fixedToUnits, formatFixed, ONE, parseFixed, shareOf, toBps, unitsToFixed } from '../../../src/money/decimal.js';

describe('exact decimals', () => {
  it.each([
    ['0', '0'],
    ['150', '150'],
    ['0.00002', '0.00002'],
    ['182.50', '182.5'],
    ['0.000000000000000001', '0.000000000000000001'],
  ])('reads and writes %s', (text, shown) => {
    expect(formatFixed(parseFixed(text) ?? -1n)).toBe(shown);
  });

  it.each(['', '-1', '1e-9', '1.', '.5', ' 1', '0.0000000000000000001'])('refuses %j', (text) => {
    expect(parseFixed(text)).toBeUndefined();
  });

  it('computes levels, shares and units without floats', () => {
    const ref = parseFixed('0.1') ?? 0n;
    expect(formatFixed(applyChange(ref, (parseFixed('20') ?? 0n) / 100n))).toBe('0.12'); // 0.1 × 1.2, exactly
    expect(formatFixed(applyChange(parseFixed('150') ?? 0n, -(ONE / 10n)))).toBe('135');
    expect(shareOf(10_000_000_001n, ONE / 2n)).toBe(5_000_000_000n); // rounded down
    expect(fixedToUnits(parseFixed('2.5') ?? 0n, 9)).toBe(2_500_000_000n);
    expect(formatFixed(unitsToFixed(1n, 9))).toBe('0.000000001');
    expect(toBps((parseFixed('12.34') ?? 0n) / 100n)).toBe(1234);
  });
});
