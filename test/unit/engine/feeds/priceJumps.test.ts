import { describe, expect, it } from 'vitest';
import { PriceJumps, type HeldJump } from '../../../../src/engine/feeds/priceJumps.js';
import type { TokenPrice } from '../../../../src/jupiter/tokens.js';

const SOL = 'So11111111111111111111111111111111111111112';
const poll = (usd: number | null): Map<string, TokenPrice> => new Map([[SOL, { mint: SOL, symbol: 'SOL', decimals: 9, usdPrice: usd, priceBlockId: 1 }]]);
const price = (m: Map<string, TokenPrice>): number | null => m.get(SOL)?.usdPrice ?? null;

describe('price jumps wait for a second poll', () => {
  it('holds a price more than 20% from the last one until the next poll says much the same', () => {
    const jumps = new PriceJumps();
    const held: HeldJump[] = [];
    const seen = [144.5, 150, 1, 1.02, 150, 120, 95].map((usd) => price(jumps.filter(poll(usd), (j) => held.push(j))));
    // 150 (+4%) passes; 1 (-99%) is held, then confirmed by 1.02 (within 20% of the held 1); 150 is held
    // again, and 120 is 20% from that held 150, which confirms it; 95 is 21% below 120: held.
    expect(seen).toEqual([144.5, 150, null, 1.02, null, 120, null]);
    expect(held).toEqual([
      { mint: SOL, symbol: 'SOL', from: 150, to: 1 },
      { mint: SOL, symbol: 'SOL', from: 1.02, to: 150 },
      { mint: SOL, symbol: 'SOL', from: 120, to: 95 },
    ]);
  });

  it('a lie that lasts one poll fires nothing: the truth comes back within the bound', () => {
    const jumps = new PriceJumps();
    expect([150, 1, 149, 148].map((usd) => price(jumps.filter(poll(usd))))).toEqual([150, null, 149, 148]);
  });
});
