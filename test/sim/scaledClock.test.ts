import { describe, expect, it } from 'vitest';
import { ManualClock, realTimeOf, systemClock } from '../../src/clock.js';
import { ScaledClock } from '../../src/scaledClock.js';

describe('ScaledClock', () => {
  it('runs the base clock speed times faster from its current instant, sleeps included', async () => {
    const base = new ManualClock(Date.UTC(2026, 0, 1));
    const fast = new ScaledClock(base, 60);
    expect(fast.now()).toBe(base.now());
    await base.advance(1_000);
    expect(fast.now()).toBe(Date.UTC(2026, 0, 1) + 60_000);
    expect(fast.monotonic()).toBe(60_000);
    let woke = false;
    const sleeping = fast.sleep(60_000).then(() => {
      woke = true;
    });
    await base.advance(999);
    expect(woke).toBe(false);
    await base.advance(1);
    await sleeping;
    expect(woke).toBe(true);
    expect(() => new ScaledClock(base, 0)).toThrow(RangeError);
  });

  it('names the real time beneath it: its base (through nested scaling); a clock that is not scaled is its own', () => {
    const base = new ManualClock(Date.UTC(2026, 0, 1));
    const fast = new ScaledClock(base, 60);
    expect(realTimeOf(fast)).toBe(base);
    expect(realTimeOf(new ScaledClock(fast, 2))).toBe(base);
    expect(realTimeOf(base)).toBe(base);
    expect(realTimeOf(systemClock)).toBe(systemClock);
  });
});
