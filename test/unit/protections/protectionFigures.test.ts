import { describe, expect, it } from 'vitest';
import { ONE } from '../../../src/money/decimal.js';
import { accountFigures } from '../../../src/protections/accountFigures.js';
import { currentStreak, type Exit, realizedSince, streakEnds } from '../../../src/protections/realizedExits.js';
import { SOL, USDC } from '../../support/mints.js';

const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const exit = (at: number, usd: number): Exit => ({ at, strategy: 's', realizedUsd: BigInt(usd) * ONE });

describe('the exits the loss protections count', () => {
  it('sum what was realized since an instant', () => {
    expect(realizedSince([exit(1, -10), exit(5, -20), exit(9, 4)], 5)).toBe(-16n * ONE);
  });

  it('end a streak at N losses in a row; a win (or breaking even) starts it again, and so does each streak’s end', () => {
    const exits = [exit(1, -1), exit(2, -1), exit(3, 0), exit(4, -1), exit(5, -2), exit(6, -3), exit(7, -1)];
    expect(streakEnds(exits, 3)).toEqual([{ at: 6, losses: -6n * ONE }]);
    expect(currentStreak(exits, 3)).toBe(1);
    expect(streakEnds(exits.slice(0, 5), 3)).toEqual([]);
    expect(currentStreak(exits.slice(0, 5), 3)).toBe(2);
  });
});

describe('equity and exposure', () => {
  const balances = {
    readAt: 0,
    byMint: new Map([
      [SOL, 2_000_000_000n],
      [USDC, 500_000_000n],
      [JUP, 7n],
    ]),
    decimals: new Map([
      [SOL, 9],
      [USDC, 6],
      [JUP, 6],
    ]),
  };
  const prices = new Map([[SOL, { mint: SOL, symbol: 'SOL', decimals: 9, usdPrice: 150.5, priceBlockId: null }]]);

  it('values the wallet, the vault deposits and the positions; exposure leaves the wallet’s dollars out; a token nothing prices is named', () => {
    const figures = accountFigures({
      balances,
      prices,
      kept: () => undefined,
      deposits: [{ mint: USDC, decimals: 6, units: 100_000_000n }],
      positions: [{ valueUsd: 12_500_000n, claimed: false } as never, { valueUsd: 1_000_000n, claimed: true } as never],
    });
    expect(figures).toEqual({
      equityUsd: 301n * ONE + 500n * ONE + 100n * ONE + (25n * ONE) / 2n,
      exposureUsd: 301n * ONE + 100n * ONE + (25n * ONE) / 2n,
      walletUsd: 801n * ONE,
      vaultUsd: 100n * ONE,
      positionsUsd: (25n * ONE) / 2n,
      unpriced: [JUP],
    });
  });

  it('prices a token the feed does not read at its last kept price, and has no figure before the first balances read', () => {
    const figures = accountFigures({
      balances,
      prices: new Map(),
      kept: (mint) =>
        new Map([
          [SOL, '100'],
          [JUP, '2'],
        ]).get(mint),
      deposits: [],
      positions: undefined,
    });
    expect(figures?.exposureUsd).toBe(200n * ONE + 14n * 10n ** 12n);
    expect(figures?.unpriced).toEqual([]);
    expect(accountFigures({ balances: undefined, prices, kept: () => undefined, deposits: [], positions: undefined })).toBeNull();
  });
});
