import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { cachedSearch } from '../../../src/engine/cachedSearch.js';
import type { TokenCandidate } from '../../../src/strategies/tokenResolution.js';

describe('cachedSearch', () => {
  it('answers a query once per minute, shares one call between concurrent askers, and forgets failures', async () => {
    const clock = new ManualClock(0);
    const calls: string[] = [];
    let fail = false;
    const search = cachedSearch((query) => {
      calls.push(query);
      return fail ? Promise.reject(new Error('503')) : Promise.resolve([{ id: `mint-${query}` } as unknown as TokenCandidate]);
    }, clock);
    const [a, b] = await Promise.all([search('USDC'), search('USDC')]);
    expect(a).toBe(b);
    await search('USDC');
    expect(calls).toEqual(['USDC']);
    await clock.advance(60_000);
    fail = true;
    await expect(search('USDC')).rejects.toThrow('503');
    fail = false;
    await search('USDC');
    expect(calls).toEqual(['USDC', 'USDC', 'USDC']);
  });
});
