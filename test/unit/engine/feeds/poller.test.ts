import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/clock.js';
import { createPoller, errorCode, feedReadinessChecks, feedStatus, InterestSet } from '../../../../src/engine/feeds/index.js';
import { JupbotError } from '../../../../src/errors.js';

describe('createPoller', () => {
  it('polls on its interval from the start of each poll, never overlapping, and stops on abort', async () => {
    const clock = new ManualClock(0);
    const starts: number[] = [];
    let running = 0;
    let maxRunning = 0;
    let durationMs = 2_000;
    const feed = createPoller({
      name: 'test',
      intervalMs: 10_000,
      clock,
      async poll(signal) {
        starts.push(clock.monotonic());
        maxRunning = Math.max(maxRunning, ++running);
        try {
          await clock.sleep(durationMs, signal);
          return starts.length;
        } finally {
          running--;
        }
      },
    });
    const stop = new AbortController();
    feed.start(stop.signal);
    expect(() => feed.start(stop.signal)).toThrow('already started');
    await clock.advance(25_000);
    expect(starts).toEqual([0, 10_000, 20_000]);
    durationMs = 15_000; // slower than the interval: the next poll starts when this one ends
    await clock.advance(45_000); // poll at 30 s ends at 45 s, the next runs 45–60 s, then 60–75 s
    expect(starts).toEqual([0, 10_000, 20_000, 30_000, 45_000, 60_000]);
    expect(maxRunning).toBe(1);
    expect(feed.state()).toMatchObject({ value: 5, polling: true, consecutiveFailures: 0 });

    const stopped = feed.events.next('stopped');
    stop.abort();
    await stopped;
    await feed.done;
    await clock.advance(60_000);
    expect(starts).toHaveLength(6);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('counts consecutive failures, keeps the value, and reports the error code', async () => {
    const clock = new ManualClock(1_000_000);
    let fail = false;
    const feed = createPoller({
      name: 'flaky',
      intervalMs: 1_000,
      clock,
      poll: () => (fail ? Promise.reject(new JupbotError('JUPITER_TIMEOUT', 'GET /x timed out')) : Promise.resolve('v')),
    });
    const stop = new AbortController();
    const first = feed.events.next('updated');
    feed.start(stop.signal);
    expect(await first).toMatchObject({ feed: 'flaky', value: 'v', at: 1_000_000 });
    fail = true;
    await clock.advance(2_000);
    expect(feed.state()).toMatchObject({
      value: 'v',
      at: 1_000_000,
      ageMs: 2_000,
      consecutiveFailures: 2,
      fresh: true,
      lastError: { code: 'JUPITER_TIMEOUT', message: 'GET /x timed out', at: 1_002_000 },
    });
    await clock.advance(1_000);
    expect(feed.state().fresh).toBe(false);
    fail = false;
    await clock.advance(1_000);
    expect(feed.state()).toMatchObject({ ageMs: 0, consecutiveFailures: 0, fresh: true });
    expect(feedStatus([feed])[0]).not.toHaveProperty('value');
    stop.abort();
    await feed.done;
  });

  it('pollSoon() during a poll runs the next one right after it, not alongside', async () => {
    const clock = new ManualClock(0);
    const starts: number[] = [];
    const feed = createPoller({
      name: 'soon',
      intervalMs: 60_000,
      clock,
      async poll(signal) {
        starts.push(clock.monotonic());
        await clock.sleep(1_000, signal);
        return null;
      },
    });
    const stop = new AbortController();
    feed.start(stop.signal);
    await clock.whenSleeping(1);
    feed.pollSoon();
    await clock.advance(1_500);
    expect(starts).toEqual([0, 1_000]);
    feed.pollSoon(); // while the second poll runs, again
    await clock.advance(1_000);
    expect(starts).toEqual([0, 1_000, 2_000]);
    await clock.advance(1_000); // 3.5 s: the third poll ended at 3 s, the feed waits for 63 s
    await clock.whenSleeping(1);
    feed.pollSoon(); // while waiting: the wait is cut short
    await clock.advance(0);
    expect(starts).toEqual([0, 1_000, 2_000, 3_500]);
    stop.abort();
    await feed.done;
  });

  it('numbers its reads: a value read by a poll that began after pollSoon() is above what pollSoon() returned, even in the same instant', async () => {
    const clock = new ManualClock(0);
    const feed = createPoller({
      name: 'numbered',
      intervalMs: 60_000,
      clock,
      async poll(signal) {
        await clock.sleep(1_000, signal);
        return clock.monotonic();
      },
    });
    const stop = new AbortController();
    feed.start(stop.signal);
    expect(feed.state().readNo).toBeNull();
    await clock.whenSleeping(1);
    // Poll 1 is running: what it reads began before this call, so it does not count as after it.
    const before = feed.pollSoon();
    expect(before).toBe(1);
    await clock.advance(1_000);
    expect(feed.state()).toMatchObject({ value: 1_000, readNo: 1 });
    await clock.advance(1_000);
    expect(feed.state()).toMatchObject({ value: 2_000, readNo: 2 });
    expect(feed.state().readNo ?? 0).toBeGreaterThan(before);
    stop.abort();
    await feed.done;
  });

  it('rejects a non-positive interval', () => {
    expect(() => createPoller({ name: 'x', intervalMs: 0, clock: new ManualClock(), poll: () => Promise.resolve(1) })).toThrow(RangeError);
  });

  it('errorCode: the code, else the name', () => {
    expect(errorCode(new JupbotError('JUPITER_SERVER_ERROR', 'm'))).toBe('JUPITER_SERVER_ERROR');
    expect(errorCode(new TypeError('m'))).toBe('TypeError');
    expect(errorCode('boom')).toBe('UNKNOWN');
  });
});

describe('a paused feed', () => {
  it('sends nothing while paused, says why in its state and readiness, polls at once on recheck, and a refusal that pauses it is not an outage', async () => {
    const clock = new ManualClock(0);
    let why: string | null = 'no loaded strategy needs it';
    let fail = false;
    const polls: number[] = [];
    const feed = createPoller({
      name: 'orders',
      intervalMs: 10_000,
      clock,
      paused: () => why,
      poll() {
        polls.push(clock.monotonic());
        if (!fail) return Promise.resolve(polls.length);
        why = 'the trigger area is off';
        return Promise.reject(new JupbotError('JUPITER_FORBIDDEN', '403'));
      },
    });
    const seen: string[] = [];
    feed.events.on('paused', (e) => seen.push(`paused: ${e.reason}`));
    feed.events.on('resumed', () => seen.push('resumed'));
    feed.events.on('failed', (e) => seen.push(`failed ${e.code}, paused: ${e.paused ?? 'no'}`));
    const stop = new AbortController();
    feed.start(stop.signal);
    await clock.advance(60_000);
    expect(polls).toEqual([]);
    expect(feed.state()).toMatchObject({ paused: 'no loaded strategy needs it', fresh: false, at: null });
    expect(feedReadinessChecks([feed])[0]?.probe()).toEqual({ ok: true, detail: 'paused: no loaded strategy needs it' });

    why = null;
    feed.recheck();
    await clock.advance(0);
    expect(polls).toEqual([60_000]);
    feed.recheck(); // polling: no effect
    await clock.advance(0);
    expect(polls).toEqual([60_000]);

    fail = true;
    await clock.advance(10_000);
    await clock.advance(30_000);
    expect(polls).toEqual([60_000, 70_000]);
    expect(seen).toEqual([
      'paused: no loaded strategy needs it',
      'resumed',
      'failed JUPITER_FORBIDDEN, paused: the trigger area is off',
      'paused: the trigger area is off',
    ]);
    expect(feedReadinessChecks([feed])[0]?.probe()).toEqual({ ok: true, detail: 'paused: the trigger area is off' });
    stop.abort();
    await feed.done;
  });
});

describe('InterestSet', () => {
  it('keeps a key while any owner wants it and reports changes', () => {
    const set = new InterestSet();
    const changes: unknown[] = [];
    set.events.on('changed', (e) => changes.push(e));
    set.set('a', ['m1', 'm2']);
    set.set('b', ['m2', 'm3']);
    expect(set.keys()).toEqual(['m1', 'm2', 'm3']);
    set.set('a', ['m2']);
    expect(set.keys()).toEqual(['m2', 'm3']);
    set.delete('b');
    expect(set.keys()).toEqual(['m2']);
    set.set('a', ['m2']); // no change, no event
    set.delete('nobody');
    expect(changes).toEqual([
      { added: ['m1', 'm2'], removed: [], size: 2 },
      { added: ['m3'], removed: [], size: 3 },
      { added: [], removed: ['m1'], size: 2 },
      { added: [], removed: ['m3'], size: 1 },
    ]);
    expect(set.has('m2')).toBe(true);
    expect(set.has('m1')).toBe(false);
  });
});
