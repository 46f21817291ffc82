import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/random.js';

describe('createRandom', () => {
  it('replays the same stream for the same seed and differs for another', () => {
    const a = createRandom('seed-1');
    const b = createRandom('seed-1');
    const c = createRandom('seed-2');
    const take = (r: ReturnType<typeof createRandom>): number[] => Array.from({ length: 20 }, () => r.next());
    const streamA = take(a);
    expect(take(b)).toEqual(streamA);
    expect(take(c)).not.toEqual(streamA);
  });

  it('stays in range and covers it', () => {
    const r = createRandom(42);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) {
      const f = r.next();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      const n = r.int(-3, 3);
      expect(n).toBeGreaterThanOrEqual(-3);
      expect(n).toBeLessThanOrEqual(3);
      seen.add(n);
    }
    expect([...seen].sort((x, y) => x - y)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(() => r.int(5, 1)).toThrow(RangeError);
  });

  it('draws an OS seed when none is given and reports it for replay', () => {
    const r = createRandom();
    expect(r.seed).toMatch(/^[0-9a-f]{16}$/);
    const replay = createRandom(r.seed);
    const first = Array.from(r.bytes(16));
    expect(Array.from(replay.bytes(16))).toEqual(first);
  });
});
