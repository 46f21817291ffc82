/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { afterEach, describe, expect, it } from 'vitest';
import { tokens } from '../../src/jupiter/schemas/index.js';
import { JUP, SOL, startSim, USDC, type Harness } from './support/simHarness.js';

let h: Harness;
afterEach(async () => h.close());

describe('token search', () => {
  it('finds by symbol, name or mint, verified first, and flags the traps', async () => {
    h = await startSim();
    const bySymbol = await h.call('GET', '/ultra/v1/search?query=jup');
    expect(bySymbol.status).toBe(200);
    const parsed = tokens.SearchResponse.parse(bySymbol.body);
    const jups = parsed.filter((t) => t.symbol === 'JUP');
    expect(jups).toHaveLength(2);
    expect(jups[0]?.id).toBe(JUP);
    expect(jups[0]?.isVerified).toBe(true);
    expect(jups[1]?.isVerified).toBe(false);
    const byName = tokens.SearchResponse.parse((await h.call('GET', '/tokens/v2/search?query=USD%20Coin')).body);
    expect(byName[0]?.id).toBe(USDC);
    const sus = tokens.SearchResponse.parse((await h.call('GET', '/ultra/v1/search?query=MOONRUG')).body);
    expect(sus[0]?.audit?.isSus).toBe(true);
    // isSus is only present when flagged.
    expect(bySymbol.body[0].audit).not.toHaveProperty('isSus');
  });

  it('answers comma-separated mint lists in order and refuses more than 100 terms', async () => {
    h = await startSim();
    const list = await h.call('GET', `/ultra/v1/search?query=${USDC},${SOL},${USDC}`);
    expect(list.body.map((t: { id: string }) => t.id)).toEqual([USDC, SOL]);
    const many = Array.from({ length: 101 }, () => SOL).join(',');
    const tooMany = await h.call('GET', `/ultra/v1/search?query=${many}`);
    expect(tooMany.status).toBe(400);
    expect(tokens.SearchErrorBody.parse(tooMany.body).error).toMatch(/100/);
    expect((await h.call('GET', '/ultra/v1/search')).status).toBe(400);
    expect((await h.call('GET', '/ultra/v1/search?query=zzzz')).body).toEqual([]);
  });

  it('serves every MintInformation field with a moving price', async () => {
    h = await startSim();
    const first = (await h.call('GET', `/ultra/v1/search?query=${SOL}`)).body[0];
    for (const k of [
      'id',
      'name',
      'symbol',
      'icon',
      'decimals',
      'tokenProgram',
      'usdPrice',
      'liquidity',
      'stats24h',
      'audit',
      'organicScore',
      'organicScoreLabel',
      'isVerified',
      'tags',
      'updatedAt',
      'mcap',
      'fdv',
    ]) {
      expect(first).toHaveProperty(k);
    }
    await h.clock.advance(3_600_000);
    const later = (await h.call('GET', `/ultra/v1/search?query=${SOL}`)).body[0];
    expect(later.usdPrice).not.toBe(first.usdPrice);
    expect(later.stats1h.priceChange).not.toBe(0);
  });
});
