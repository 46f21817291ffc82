import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/clock.js';

describe('ManualClock', () => {
  it('wakes sleepers in deadline order at their exact instants', async () => {
    const clock = new ManualClock(1_000);
    const woke: [string, number][] = [];
    const sleepThenRecord = async (name: string, ms: number): Promise<void> => {
      await clock.sleep(ms);
      woke.push([name, clock.now()]);
    };
    const all = Promise.all([sleepThenRecord('c', 300), sleepThenRecord('a', 100), sleepThenRecord('b', 200)]);
    await clock.whenSleeping(3);
    await clock.advance(250);
    expect(woke).toEqual([
      ['a', 1_100],
      ['b', 1_200],
    ]);
    expect(clock.now()).toBe(1_250);
    await clock.advance(50);
    await all;
    expect(woke.at(-1)).toEqual(['c', 1_300]);
  });

  it('runs chained sleeps scheduled during an advance, within the same advance', async () => {
    const clock = new ManualClock(0);
    const ticks: number[] = [];
    const loop = (async () => {
      for (let i = 0; i < 5; i++) {
        await clock.sleep(10_000);
        ticks.push(clock.now());
      }
    })();
    await clock.advance(60_000);
    await loop;
    expect(ticks).toEqual([10_000, 20_000, 30_000, 40_000, 50_000]);
  });

  it('rejects a sleep with the abort reason and forgets it', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(clock.pendingSleeps).toBe(0);
    await expect(clock.sleep(1, controller.signal)).rejects.toThrow('stop');
  });

  it('refuses to go backwards; setWallTime models a clock correction without waking anyone', async () => {
    const clock = new ManualClock(5_000);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    const pending = clock.sleep(100);
    clock.setWallTime(1_000);
    expect(clock.now()).toBe(1_000);
    expect(clock.pendingSleeps).toBe(1);
    await clock.advance(100);
    await pending;
    expect(clock.now()).toBe(1_100);
    expect(clock.monotonic()).toBe(100);
  });
});

describe('systemClock', () => {
  it('rejects a sleep whose signal is already aborted, without waiting', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(systemClock.sleep(60_000, controller.signal)).rejects.toThrow('gone');
  });

  it('aborts a pending sleep with the signal reason', async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    controller.abort(new Error('shutdown'));
    await expect(sleeping).rejects.toThrow('shutdown');
  });
});
