import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { sharedFor } from '../../../src/ops/sharedFor.js';

describe('sharedFor', () => {
  it('joins the computation in hand, serves its value for ms after it settled, then computes again', async () => {
    const clock = new ManualClock(0);
    let computed = 0;
    let finish: (value: string) => void = () => undefined;
    const body = sharedFor(1_000, clock, () => {
      computed += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    });
    const waiting = [body(), body(), body()];
    // Time spent computing does not count against the value's freshness.
    await clock.advance(5_000);
    expect(body()).toBe(waiting[0]);
    finish('first');
    expect(await Promise.all(waiting.map((w) => Promise.resolve(w)))).toEqual(['first', 'first', 'first']);
    expect(body()).toBe('first');
    await clock.advance(999);
    expect(body()).toBe('first');
    await clock.advance(1);
    const next = body();
    finish('second');
    expect(await next).toBe('second');
    expect(computed).toBe(2);
  });

  it('keeps no failure: every caller waiting gets the error, and the next caller computes again', async () => {
    const clock = new ManualClock(0);
    const results = [() => Promise.reject(new Error('collector broke')), () => 'fine'];
    let computed = 0;
    const body = sharedFor(1_000, clock, () => (results[computed++] as () => string | Promise<string>)());
    const [a, b] = [body(), body()];
    await expect(a).rejects.toThrow('collector broke');
    await expect(b).rejects.toThrow('collector broke');
    expect(await body()).toBe('fine');
    expect(body()).toBe('fine');
    expect(computed).toBe(2);
  });

  it('measures freshness on the monotonic clock: a wall clock step does not renew or expire the value', async () => {
    const clock = new ManualClock(0);
    let computed = 0;
    const body = sharedFor(1_000, clock, () => ++computed);
    expect(await body()).toBe(1);
    clock.setWallTime(3_600_000);
    expect(body()).toBe(1);
    clock.setWallTime(-3_600_000);
    expect(body()).toBe(1);
    await clock.advance(1_000);
    expect(await body()).toBe(2);
  });
});
