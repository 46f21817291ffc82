/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { afterEach, describe, expect, it } from 'vitest';
import { tokens } from '../../src/jupiter/schemas/index.js';
import { syntheticTokens, TOKEN_CATALOG } from '../../src/sim/tokenCatalog.js';
import { JUP, SOL, startSim, type Harness } from './support/simHarness.js';

let harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  harnesses = [];
});

async function sim(extraTokens?: number): Promise<Harness> {
  const h = await startSim(extraTokens === undefined ? {} : { extraTokens });
  harnesses.push(h);
  return h;
}

describe('synthetic tokens (extraTokens)', () => {
  it('are the same for the same seed, differ across seeds, and never reuse a real mint', () => {
    const a = syntheticTokens('bench', 200);
    expect(a).toHaveLength(200);
    expect(syntheticTokens('bench', 200)).toEqual(a);
    expect(syntheticTokens('bench', 10)).toEqual(a.slice(0, 10));
    expect(syntheticTokens('other', 1)[0]?.mint).not.toBe(a[0]?.mint);
    const mints = new Set([...TOKEN_CATALOG, ...a].map((t) => t.mint));
    expect(mints.size).toBe(TOKEN_CATALOG.length + 200);
    expect(a[0]?.symbol).toBe('SYN001');
    for (const t of a) {
      expect(t.priceUsd).toBeGreaterThan(0);
      expect(t.isVerified).toBe(true);
      expect(t.totalSupply * t.priceUsd).toBeGreaterThan(t.liquidityUsd);
    }
    expect(() => syntheticTokens('bench', -1)).toThrow(RangeError);
  });

  it('are found by mint, 100 to a search call, with full MintInformation records', async () => {
    const h = await sim(189);
    const extra = syntheticTokens('test', 189);
    const batch = extra.slice(0, 100).map((t) => t.mint);
    const found = tokens.SearchResponse.parse((await h.call('GET', `/tokens/v2/search?query=${batch.join(',')}`)).body);
    expect(found.map((t) => t.id)).toEqual(batch);
    expect(found[0]?.usdPrice).toBe(extra[0]?.priceUsd);
    expect(found[0]?.decimals).toBe(extra[0]?.decimals);
    const bySymbol = (await h.call('GET', '/ultra/v1/search?query=SYN189')).body;
    expect(bySymbol[0].id).toBe(extra[188]?.mint);
  });

  it('leave the real tokens walking exactly as without them, and conserve every supply', async () => {
    const plain = await sim();
    const loaded = await sim(50);
    await Promise.all([plain.clock.advance(6 * 3_600_000), loaded.clock.advance(6 * 3_600_000)]);
    const query = `/tokens/v2/search?query=${SOL},${JUP}`;
    const [a, b] = await Promise.all([plain.call('GET', query), loaded.call('GET', query)]);
    expect(b.body.map((t: { usdPrice: number }) => t.usdPrice)).toEqual(a.body.map((t: { usdPrice: number }) => t.usdPrice));
    const mint = syntheticTokens('test', 50)[49]?.mint as string;
    expect(loaded.sim.control.price(mint)).not.toBe(syntheticTokens('test', 50)[49]?.priceUsd);
    expect(loaded.sim.control.checkInvariants()).toEqual({ supplyMismatches: [], negativeBalances: [] });
    loaded.sim.control.fund('BhbuNgiMxfLwyy1AneQXxjXTQVY9JQd91UqrdLSuhRva', 1_000n, mint);
    expect(loaded.sim.control.balance('BhbuNgiMxfLwyy1AneQXxjXTQVY9JQd91UqrdLSuhRva', mint)).toBe(1_000n);
  });
});
