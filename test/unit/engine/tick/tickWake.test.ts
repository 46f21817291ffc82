import { afterEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../../../src/clock.js';
import type { Executor } from '../../../../src/engine/executor/executor.js';
import type { Balances } from '../../../../src/engine/feeds/balances.js';
import type { FeedState } from '../../../../src/engine/feeds/poller.js';
import { decisionRecords } from '../../../../src/engine/tick/decisionRecords.js';
import { startTickLoop, type TickLoop, type TickLoopOptions } from '../../../../src/engine/tick/tickLoop.js';
import type { TokenPrice } from '../../../../src/jupiter/tokens.js';
import { AuditLog } from '../../../../src/store/audit.js';
import { TypedEmitter } from '../../../../src/typedEmitter.js';
import { freshStore } from '../../store/helpers.js';

const INTERVAL = 10_000;

function feedState<T>(name: string, value: T, at: number): FeedState<T> {
  return { name, value, at, readNo: 1, ageMs: 0, fresh: true, lastError: null, consecutiveFailures: 0, intervalMs: INTERVAL, polling: false, paused: null };
}

/** An executor that takes nothing: these tests are about when the loop runs, not what it decides. */
const idleExecutor = {
  stopped: false,
  withdrawals: () => [],
  take: () => Promise.reject(new Error('nothing is decided here')),
  retryRuns: () => Promise.resolve([]),
  deferred: () => ({}),
} as unknown as Executor;

const noBalances: Balances = { byMint: new Map(), decimals: new Map(), readAt: 1 };

/**
 * A decide loop on a fresh store and a manual clock, with no strategies and fresh feeds; `over`
 * replaces any option. `stop()` aborts it, waits for it and closes the store.
 */
function loopOn(over: (clock: ManualClock) => Partial<TickLoopOptions> = () => ({})): {
  clock: ManualClock;
  loop: TickLoop;
  abort: AbortController;
  stop: () => Promise<void>;
} {
  const { db, clock } = freshStore();
  const abort = new AbortController();
  const loop = startTickLoop({
    clock,
    executor: idleExecutor,
    records: decisionRecords(db, new AuditLog(db, clock), clock),
    strategies: () => new Map(),
    sources: () => ({ prices: feedState('prices', new Map<string, TokenPrice>(), clock.now()), balances: feedState('balances', noBalances, clock.now()) }),
    intervalMs: INTERVAL,
    ready: Promise.resolve(),
    signal: abort.signal,
    ...over(clock),
  });
  return {
    clock,
    loop,
    abort,
    stop: async () => {
      abort.abort();
      await loop.done;
      db.close();
    },
  };
}

describe('the decide loop wakes when a feed publishes', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  function start(wakeOn: boolean): { clock: ManualClock; feed: TypedEmitter<{ updated: null }>; loop: TickLoop; at: number[] } {
    const feed = new TypedEmitter<{ updated: null }>();
    const { clock, loop, stop } = loopOn(() => ({ wakeOn: wakeOn ? (wake) => feed.on('updated', wake) : undefined }));
    const at: number[] = [];
    const start0 = clock.now();
    loop.events.on('tick', (t) => at.push(t.at - start0));
    stops.push(stop);
    return { clock, feed, loop, at };
  }

  it('a publish runs a tick at once, not at the loop’s next interval', async () => {
    const { clock, feed, loop, at } = start(true);
    await loop.events.next('tick');
    await clock.advance(3_000);
    const woken = loop.events.next('tick');
    feed.emit('updated', null);
    await woken;
    // The tick after the publish ran at 3 s: the decision saw the price the instant it was read.
    expect(at).toEqual([0, 3_000]);
    // Without a publish, the time-based clock runs the next one 1.5 intervals after the last.
    await clock.advance(INTERVAL);
    expect(at).toEqual([0, 3_000]);
    const timed = loop.events.next('tick');
    await clock.advance(INTERVAL / 2);
    await timed;
    expect(at).toEqual([0, 3_000, 18_000]);
  });

  it('without a subscription the loop runs on its own clock only', async () => {
    const { clock, feed, loop, at } = start(false);
    await loop.events.next('tick');
    await clock.advance(3_000);
    feed.emit('updated', null);
    await clock.advance(11_999);
    expect(at).toEqual([0]);
    const timed = loop.events.next('tick');
    await clock.advance(1);
    await timed;
    expect(at).toEqual([0, 15_000]);
  });

  it('publishes that arrive together run one tick, never two at once', async () => {
    const { clock, feed, loop, at } = start(true);
    await loop.events.next('tick');
    await clock.advance(1_000);
    // Three publishes before the loop gets to run: one tick for all of them.
    const next = loop.events.next('tick');
    feed.emit('updated', null);
    feed.emit('updated', null);
    feed.emit('updated', null);
    await next;
    await clock.advance(0);
    expect(at).toEqual([0, 1_000]);
    expect(loop.status().ticks).toBe(2);
  });
});

describe('after an action, the decide loop waits for a balances read begun after it', () => {
  it('a read begun before the action wakes one skipped tick, which asks again; the next read decides, and nothing spins in between', async () => {
    const prices = new TypedEmitter<{ updated: null }>();
    const reads = new TypedEmitter<{ updated: null }>();
    // The balances feed as the loop sees it: the read its value came from, and the polls begun.
    let readNo = 3;
    let begun = 3;
    const asked: number[] = [];
    let withdrawn = false;
    const withdrawal = { id: 'engine/withdraw/o1', kind: 'cancel-vault-order', key: { strategy: 's' } };
    // One stranded withdrawal, taken in the first tick: it moves balances.
    const executor = {
      ...idleExecutor,
      withdrawals: () => (withdrawn ? [] : [withdrawal]),
      take: () => {
        withdrawn = true;
        const attempt = { kind: 'plan', input: { id: withdrawal.id }, failures: 0 };
        return Promise.resolve({
          outcome: 'done',
          rule: 'withdraw',
          slot: withdrawal.id,
          attempt,
          row: null,
          created: true,
          driven: true,
          touched: true,
          retry: null,
        });
      },
    } as unknown as Executor;
    const { clock, loop, stop } = loopOn((clock) => ({
      executor,
      sources: () => ({
        prices: feedState('prices', new Map<string, TokenPrice>(), clock.now()),
        balances: { ...feedState('balances', noBalances, clock.now()), readNo },
      }),
      refreshBalances: () => {
        asked.push(begun);
        return begun;
      },
      wakeOn: (wake) => prices.on('updated', wake),
      wakeOnRead: (read) => reads.on('updated', read),
    }));
    const seen: (string | null)[] = [];
    loop.events.on('tick', (t) => seen.push(t.skipped));
    try {
      await loop.events.next('tick');
      // The withdrawal asked for a read when it was taken: 3 polls had begun.
      expect(asked).toEqual([3]);
      // A price read: the tick skips, balances not read since the action, and asks again.
      let next = loop.events.next('tick');
      prices.emit('updated', null);
      await next;
      expect(seen).toEqual([null, 'wallet balances not read again since the last swap']);
      // Poll 3, begun before the action, ends now (same instant): it wakes the skipped loop, which skips again.
      begun = 4;
      next = loop.events.next('tick');
      reads.emit('updated', null);
      await next;
      await clock.advance(0);
      expect(seen).toEqual([null, 'wallet balances not read again since the last swap', 'wallet balances not read again since the last swap']);
      expect(loop.status().ticks).toBe(3);
      // Poll 4, begun after the action, in the same millisecond: the loop decides on it.
      readNo = 4;
      next = loop.events.next('tick');
      reads.emit('updated', null);
      await next;
      expect(seen.at(-1)).toBeNull();
      expect(loop.status().ticks).toBe(4);
      // A read nobody waited for wakes nothing.
      reads.emit('updated', null);
      await clock.advance(0);
      expect(loop.status().ticks).toBe(4);
    } finally {
      await stop();
    }
  });
});

describe('a stop before reconciliation settles', () => {
  it('ends the loop without waiting for it (a failed start while the first balances read hangs)', async () => {
    const { clock, loop, abort, stop } = loopOn(() => ({
      sources: () => {
        throw new Error('no tick runs before ready');
      },
      // Never settles: the first balances read still hangs on the RPC.
      ready: new Promise<never>(() => undefined),
    }));
    let ended = false;
    void loop.done.then(() => (ended = true));
    await clock.advance(0);
    expect(ended).toBe(false);
    abort.abort();
    await loop.done;
    expect(loop.status()).toMatchObject({ ticks: 0, blocked: null });
    await stop();
  });
});

describe("the operator's control intents", () => {
  it('are taken even when the tick decides nothing for want of fresh balances', async () => {
    const taken: string[] = [];
    const executor = {
      ...idleExecutor,
      take: (strategy: string, intent: { id: string }) => {
        taken.push(`${strategy}:${intent.id}`);
        return Promise.resolve({ outcome: 'deferred', intentId: intent.id, kind: 'cancel-vault-order', reason: 'a test', recorded: false });
      },
    } as unknown as Executor;
    const cancel = { kind: 'cancel-vault-order', id: 'a/control/halt/o1', orderId: 'o1', family: 'price' };
    const { loop, stop } = loopOn((clock) => ({
      executor,
      // The balances were never read: nothing may be decided on them.
      sources: () => ({
        prices: feedState('prices', new Map<string, TokenPrice>(), clock.now()),
        balances: { ...feedState('balances', noBalances, clock.now()), value: undefined, at: null, readNo: 0 },
      }),
      controls: () => [{ strategy: 'a', intent: cancel as never }],
    }));
    try {
      await loop.tick();
      expect(loop.status().lastSkipped).not.toBeNull();
      expect(taken).toEqual(['a:a/control/halt/o1']);
    } finally {
      await stop();
    }
  });
});
