import { setTimeout as delay } from 'node:timers/promises';

/**
 * The only source of time in jupbot. Everything that waits or stamps a time takes a Clock,
 * so tests drive hours of behaviour with a {@link ManualClock} and never sleep for real.
 */
export interface Clock {
  /** Wall time, UTC epoch milliseconds. May jump when the system clock is corrected. */
  now(): number;
  /** Milliseconds from an arbitrary origin that never goes backwards: use it for elapsed time. */
  monotonic(): number;
  /** Resolves after `ms`; rejects with the signal's reason when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * The clock this one's time is made from when it runs faster than real time (paper mode's
   * `sim.speed`); absent when it runs at real speed (or is a test's manual clock). See {@link realTimeOf}.
   */
  readonly realTime?: Clock | undefined;
}

/**
 * The clock that measures real time for `clock`: the base of a scaled clock, else the clock itself.
 * What protects against a slow network (request timeouts, the backoff between attempts) waits on it,
 * so running simulated time faster never shortens a request's allowance; what a strategy or the
 * simulated world experiences (polls, schedules, expiries) stays on `clock`. With a ManualClock it is
 * that clock, so tests stay deterministic.
 */
export function realTimeOf(clock: Clock): Clock {
  return clock.realTime ?? clock;
}

/** The error an aborted sleep rejects with: the signal's reason when it is an Error, else an AbortError. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The operation was aborted', 'AbortError');
}

/** Node fires a timer longer than 2^31-1 ms (about 24.8 days) after 1 ms, so long sleeps go in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The real clock. The one place in src/ allowed to read the system time. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  async sleep(ms, signal) {
    if (signal?.aborted) throw abortReason(signal);
    const until = performance.now() + Math.max(0, ms);
    for (let left = Math.max(0, ms); ; left = until - performance.now()) {
      await delay(Math.min(Math.max(0, left), MAX_TIMER_MS), undefined, signal ? { signal } : undefined).catch((error: unknown) => {
        throw signal?.aborted ? abortReason(signal) : error;
      });
      if (left <= MAX_TIMER_MS) return;
    }
  },
};

interface Sleeper {
  wakeAt: number;
  seq: number;
  resolve: () => void;
}

/** Lets already-resolved promise chains run, so that code woken by a sleep can schedule its next one. */
const flushMicrotasks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when a test says so. `advance()` wakes due sleepers in time order,
 * setting `now()` to each one's deadline first, so code observes exactly the instants it asked for.
 */
export class ManualClock implements Clock {
  #now: number;
  #monotonic = 0;
  #seq = 0;
  #sleepers: Sleeper[] = [];
  #waiters: { count: number; resolve: () => void }[] = [];

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  monotonic(): number {
    return this.#monotonic;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { wakeAt: this.#monotonic + Math.max(0, ms), seq: this.#seq++, resolve };
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(abortReason(signal as AbortSignal));
      };
      sleeper.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
      this.#notifyWaiters();
    });
  }

  /** How many sleeps are pending. */
  get pendingSleeps(): number {
    return this.#sleepers.length;
  }

  /** Resolves once at least `count` sleeps are pending: lets a test wait until code is parked on the clock. */
  whenSleeping(count = 1): Promise<void> {
    if (this.#sleepers.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** Moves time forward by `ms`, waking every sleeper that falls due on the way, earliest first. */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new RangeError(`ManualClock.advance expects ms >= 0, got ${ms}`);
    const target = this.#monotonic + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.#nextDue(target);
      if (!next) break;
      this.#moveTo(next.wakeAt);
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      next.resolve();
      await flushMicrotasks();
    }
    this.#moveTo(target);
    await flushMicrotasks();
  }

  /** Sets wall time without waking anyone: models a system clock correction. */
  setWallTime(epochMs: number): void {
    this.#now = epochMs;
  }

  #nextDue(target: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const s of this.#sleepers) {
      if (s.wakeAt > target) continue;
      if (!best || s.wakeAt < best.wakeAt || (s.wakeAt === best.wakeAt && s.seq < best.seq)) best = s;
    }
    return best;
  }

  #moveTo(monotonic: number): void {
    const step = monotonic - this.#monotonic;
    if (step <= 0) return;
    this.#monotonic = monotonic;
    this.#now += step;
  }

  #notifyWaiters(): void {
    const ready = this.#waiters.filter((w) => this.#sleepers.length >= w.count);
    this.#waiters = this.#waiters.filter((w) => this.#sleepers.length < w.count);
    for (const w of ready) w.resolve();
  }
}
