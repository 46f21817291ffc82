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

  it('prefetch asks about unknown mints 100 to a call; each then answers alone; a failed batch is forgotten', async () => {
    const clock = new ManualClock(0);
    const calls: string[] = [];
    let fail = false;
    const search = cachedSearch((query) => {
      calls.push(query);
      if (fail) return Promise.reject(new Error('503'));
      return Promise.resolve(
        query
          .split(',')
          .filter((q) => !q.startsWith('x'))
          .map((id) => ({ id }) as unknown as TokenCandidate),
      );
    }, clock);
    const mints = Array.from({ length: 150 }, (_, i) => `m${i}`);
    await search('m0');
    await search.prefetch?.([...mints, 'm1', 'x-unknown']);
    // m0 was known: 149 + 1 unknown mint, 100 then 50.
    expect(calls.map((q) => q.split(',').length)).toEqual([1, 100, 50]);
    expect(await search('m120')).toEqual([{ id: 'm120' }]);
    expect(await search('x-unknown')).toEqual([]);
    expect(calls).toHaveLength(3);
    fail = true;
    await clock.advance(60_000);
    await search.prefetch?.(['m1', 'm2']);
    expect(calls.at(-1)).toBe('m1,m2');
    fail = false;
    expect(await search('m2')).toEqual([{ id: 'm2' }]);
    expect(calls.slice(3)).toEqual(['m1,m2', 'm2']);
  });
});
