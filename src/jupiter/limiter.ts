/**
 * Client-side rate limiting: one strict sliding-window gate per Jupiter bucket, on the injected Clock.
 *
 * How p-queue is used, and why not all of it: p-queue keeps each bucket's waiting requests in
 * priority order (FIFO within a priority), removes aborted ones, and is the queue the metrics read.
 * Its own `interval`/`intervalCap` window is NOT used: it reads `Date.now()` and real timers, and the
 * daemon runs on an injected Clock (manual in tests, scaled in paper mode). So the queue stays paused,
 * and a pump owned by this module releases exactly one task each time the window has a free slot:
 * it computes the wait from the window (monotonic clock), sleeps on the Clock, then calls
 * `queue.start()`; the released task pauses the queue again synchronously and takes its slot. Because
 * the pump waits *before* it dequeues, a high-priority request that arrives while the bucket is
 * saturated is the next one out (an exit never waits behind a queue of polls).
 *
 * The window counts each request from the end of its exchange (see {@link SlidingWindow}): the server
 * counts arrivals, and the end is an upper bound of the arrival, so no latency or burst spread can
 * push a request into the server's window of an earlier one. The cost is one latency per 60 s (≈ 0.2 %
 * at 100 ms). A 50 ms guard covers clock-rate differences. Server headers tighten it further:
 * `x-ratelimit-remaining ≤ 0` pauses the bucket until `x-ratelimit-reset`; a 429 pauses the whole bucket
 * (not just the one call) for the time computed by {@link rateLimitPauseMs}.
 *
 * Shared by a fleet (an injected {@link SharedGate}): the pump, once the local window and pauses let a
 * request go, asks the gate for a fleet-wide slot for the highest class waiting, and only then
 * releases a task and hands it that slot. Without a gate none of that code runs.
 */
import PQueue from 'p-queue';
import type { Clock } from '../clock.js';
import { linkSignals } from './abort.js';
import type { TypedEmitter } from '../typedEmitter.js';
import type { Bucket } from './bucket.js';
import type { JupiterEvents } from './events.js';
import type { SharedGate, SharedSlot } from './sharedGate.js';

/**
 * Request priority classes, highest first. Within a bucket a waiting request of a higher class is
 * always sent before any of a lower class; within a class, first come first served.
 */
export const Priority = {
  /** Exits and cancels: selling a position, cancelling an order, confirming a cancel, claims. */
  Exit: 3,
  /** Order placement: swap quotes for a trade, deposits, order creation, execute. */
  Place: 2,
  /** Polling positions and order state. */
  PollState: 1,
  /** Polling prices, scores, events and other market data. */
  PollMarket: 0,
} as const;
export type Priority = (typeof Priority)[keyof typeof Priority];

/** A slot taken in a {@link SlidingWindow}: call `end()` once the exchange is over (answer or failure). */
export interface WindowSlot {
  end(): void;
}

/**
 * A strict sliding window that counts a request from the moment its exchange ended, not the moment
 * it left. The gateway counts arrivals; an arrival lies between our departure and our receipt of the
 * answer, so timing each request by its end is an upper bound of the server's timestamp: the next
 * request can never reach the server inside the window of one we counted, whatever the latency or
 * how a burst is spread on the way. While a request is in flight it occupies a slot that cannot expire.
 * End times are read from a monotonic clock, so the list stays sorted by appending.
 */
export class SlidingWindow {
  readonly quota: number;
  readonly windowMs: number;
  #ends: number[] = [];
  #head = 0;
  #inFlight = 0;

  constructor(quota: number, windowMs: number) {
    if (!Number.isInteger(quota) || quota < 1) throw new TypeError(`Expected \`quota\` to be an integer from 1 and up, got \`${quota}\``);
    if (!(windowMs > 0)) throw new TypeError(`Expected \`windowMs\` to be a positive number, got \`${windowMs}\``);
    this.quota = quota;
    this.windowMs = windowMs;
  }

  /** Requests in flight plus those that ended within the window ending at `now`. */
  count(now: number): number {
    this.#prune(now);
    return this.#inFlight + this.#ends.length - this.#head;
  }

  /** Requests currently in flight. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Milliseconds until one more request may start: 0 when it may start now, `Infinity` when the
   * window is full of requests still in flight (wait for one to end).
   */
  waitMs(now: number, limit: number = this.quota): number {
    const count = this.count(now);
    if (count < limit) return 0;
    const mustLeave = count - limit; // 0-based index among ended requests, oldest first
    const ended = this.#ends.length - this.#head;
    if (mustLeave >= ended) return Number.POSITIVE_INFINITY;
    const end = this.#ends[this.#head + mustLeave] ?? now;
    return Math.max(0, end + this.windowMs - now);
  }

  /** Takes a slot at `now`; `onEnd` runs when the slot's `end()` is called (once). */
  start(clock: { monotonic(): number }, onEnd?: () => void): WindowSlot {
    this.#inFlight++;
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        this.#inFlight--;
        const at = clock.monotonic();
        const last = this.#ends[this.#ends.length - 1];
        this.#ends.push(last !== undefined && last > at ? last : at);
        onEnd?.();
      },
    };
  }

  /** Records a request that started and ended at `now` (tests, and callers without an exchange). */
  record(now: number): void {
    const last = this.#ends[this.#ends.length - 1];
    this.#ends.push(last !== undefined && last > now ? last : now);
  }

  #prune(now: number): void {
    while (this.#head < this.#ends.length && (this.#ends[this.#head] ?? 0) + this.windowMs <= now) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#ends.length) {
      this.#ends = this.#ends.slice(this.#head);
      this.#head = 0;
    }
  }
}

export interface BucketLimiterOptions {
  bucket: Bucket;
  /** Requests allowed per window. */
  quota: number;
  /** The server's window. @default 60000 */
  windowMs?: number;
  /** Added to the window to absorb clock-rate differences with the server. @default 50 */
  guardMs?: number;
  clock: Clock;
  events: TypedEmitter<JupiterEvents>;
  /** The fleet's gate for this bucket: every request also needs its slot. @default none: local only */
  shared?: SharedGate | undefined;
}

/** The classes the shared gate is asked for, highest first. */
const CLASSES = [Priority.Exit, Priority.Place, Priority.PollState, Priority.PollMarket] as const;

/** Thrown (as the abort reason) to requests still queued when the limiter closes. */
export class LimiterClosedError extends Error {
  override name = 'LimiterClosedError';
}

/** One bucket: a priority queue, its sliding window, and server-imposed pauses. */
export class BucketLimiter {
  readonly bucket: Bucket;
  readonly window: SlidingWindow;
  readonly #clock: Clock;
  readonly #events: TypedEmitter<JupiterEvents>;
  readonly #queue = new PQueue({ concurrency: Number.POSITIVE_INFINITY, autoStart: false });
  /** Aborts the pump's sleep on close. */
  readonly #stop = new AbortController();
  /** Requests waiting in the queue, to reject on close. */
  readonly #waiting = new Set<ReturnType<typeof linkSignals>>();
  #closed = false;
  /** Aborted to wake the pump early when a slot ends while it waits for one. */
  #wake = new AbortController();
  #awaitingEnd = false;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  #pauseReason: 'server-remaining' | '429' = '429';
  #pumping = false;
  /** Numbers the requests of this bucket for the `enqueue` and `dispatch` events. */
  #requests = 0;
  readonly #shared: SharedGate | undefined;
  /** The fleet slot granted for the task being released, taken by it synchronously. */
  #granted: SharedSlot | undefined;
  /** The class the pump waits on the fleet for; a higher arrival wakes it. */
  #askedFor: number | null = null;

  constructor(options: BucketLimiterOptions) {
    this.bucket = options.bucket;
    this.window = new SlidingWindow(options.quota, (options.windowMs ?? 60_000) + (options.guardMs ?? 50));
    this.#clock = options.clock;
    this.#events = options.events;
    this.#shared = options.shared;
  }

  /** Requests waiting for a slot. */
  get size(): number {
    return this.#queue.size;
  }

  /** Milliseconds left in the current server-imposed pause (0 when none). */
  get pausedForMs(): number {
    return Math.max(0, this.#pausedUntil - this.#clock.monotonic());
  }

  /**
   * Resolves when this request may be sent, with its slot in the window: call `slot.end()` when the
   * exchange is over (the transport does, in a `finally`). Rejects with the signal's reason if `signal`
   * aborts while waiting, or with {@link LimiterClosedError} on close.
   */
  async acquire(priority: number, route: string, signal?: AbortSignal): Promise<WindowSlot> {
    if (this.#closed) throw new LimiterClosedError(`the ${this.bucket} bucket is closed`);
    const link = linkSignals(signal);
    this.#waiting.add(link);
    let slot: WindowSlot | undefined;
    const request = ++this.#requests;
    const queuedAt = this.#clock.monotonic();
    this.#events.emit('enqueue', { bucket: this.bucket, priority, route, request });
    const task = this.#queue.add(
      () => {
        this.#queue.pause();
        slot = this.window.start(this.#clock, () => this.#onSlotEnd());
        const fleet = this.#granted;
        if (fleet !== undefined) {
          this.#granted = undefined;
          const local = slot;
          let ended = false;
          slot = {
            end: () => {
              if (ended) return;
              ended = true;
              local.end();
              fleet.end();
            },
          };
        }
        this.#events.emit('dispatch', { bucket: this.bucket, priority, route, request, waitedMs: this.#clock.monotonic() - queuedAt });
        return slot;
      },
      { priority, signal: link.signal },
    );
    this.#events.emit('queue', { bucket: this.bucket, size: this.#queue.size });
    // Waiting on the fleet for a lower class: ask again now, for this one.
    if (this.#askedFor !== null && priority > this.#askedFor) this.#wakePump();
    void this.#pump();
    try {
      return await task;
    } catch (error) {
      // Aborted in the instant between release and hand-over: end the slot so it is not held forever.
      slot?.end();
      throw error;
    } finally {
      link.dispose();
      this.#waiting.delete(link);
      this.#events.emit('queue', { bucket: this.bucket, size: this.#queue.size });
    }
  }

  /** A slot ended: if the pump waits for one (the window is full of requests in flight), wake it. */
  #onSlotEnd(): void {
    if (this.#awaitingEnd) {
      this.#awaitingEnd = false;
      this.#wakePump();
    }
  }

  #wakePump(): void {
    this.#wake.abort();
    this.#wake = new AbortController();
  }

  /** The highest class with a request waiting (an unlisted priority counts as the lowest: the strictest limit). */
  #highestWaiting(): number {
    for (const priority of CLASSES) if (this.#queue.sizeBy({ priority }) > 0) return priority;
    return Priority.PollMarket;
  }

  /**
   * Asks the fleet for a slot for the highest class waiting. True when one is granted and parked in
   * `#granted` for the task about to be released; false when the pump should look again (it slept
   * on a refusal, the queue changed, or the limiter closed).
   */
  async #fleetSlot(shared: SharedGate): Promise<boolean> {
    const priority = this.#highestWaiting();
    this.#askedFor = priority;
    let grant;
    try {
      grant = await shared.acquire(priority);
    } finally {
      this.#askedFor = null;
    }
    if (!grant.admitted) {
      // Closing, or a higher class arrived while the fleet was asked: ask again for it at once.
      if (this.#closed || this.#highestWaiting() > priority) return false;
      // The fleet's earliest entry may end sooner than its score says (an exchange ends early): look again within a second.
      const sleepMs = Math.max(1, Math.min(grant.retryInMs, 1_000));
      this.#events.emit('ratelimited', { bucket: this.bucket, waitMs: sleepMs, reason: 'window' });
      this.#askedFor = priority;
      const link = linkSignals(this.#stop.signal, this.#wake.signal);
      try {
        await this.#clock.sleep(sleepMs, link.signal);
      } catch {
        // Woken: a higher class arrived, or closing.
      } finally {
        link.dispose();
        this.#askedFor = null;
      }
      return false;
    }
    // Still wanted? Closed, aborted meanwhile, or a server pause began: give the slot back at once.
    const stillWaiting = this.#queue.size > 0 && this.#highestWaiting() >= priority;
    if (this.#closed || !stillWaiting || this.#pausedUntil > this.#clock.monotonic()) {
      grant.slot.end();
      return false;
    }
    this.#granted = grant.slot;
    return true;
  }

  /** Pauses the whole bucket for `ms` (keeps the later of this and any current pause). */
  pauseFor(ms: number, reason: 'server-remaining' | '429', source?: string): void {
    const until = this.#clock.monotonic() + Math.max(0, ms);
    if (until > this.#pausedUntil) {
      this.#pausedUntil = until;
      this.#pauseReason = reason;
    }
    this.#events.emit('ratelimited', { bucket: this.bucket, waitMs: Math.max(0, ms), reason, ...(source ? { source } : {}) });
  }

  /** Rejects every waiting request and stops the pump. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const reason = new LimiterClosedError(`the ${this.bucket} bucket is closed`);
    for (const link of this.#waiting) link.abort(reason);
    this.#stop.abort(reason);
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (!this.#closed && this.#queue.size > 0) {
        const now = this.#clock.monotonic();
        const pauseWait = this.#pausedUntil - now;
        const windowWait = this.window.waitMs(now);
        const wait = Math.max(pauseWait, windowWait);
        if (wait > 0) {
          const blockedInFlight = wait === Number.POSITIVE_INFINITY;
          // Full of requests in flight: sleep until one ends (woken early), re-checking at least every window.
          const sleepMs = blockedInFlight ? this.window.windowMs : wait;
          if (windowWait >= pauseWait) this.#events.emit('ratelimited', { bucket: this.bucket, waitMs: sleepMs, reason: 'window' });
          this.#awaitingEnd = blockedInFlight;
          const link = linkSignals(this.#stop.signal, this.#wake.signal);
          try {
            await this.#clock.sleep(sleepMs, link.signal);
          } catch {
            if (this.#closed) break;
          } finally {
            link.dispose();
            this.#awaitingEnd = false;
          }
          continue;
        }
        if (this.#shared !== undefined && !(await this.#fleetSlot(this.#shared))) continue;
        // Releases exactly one task: it pauses the queue again before returning (see the module doc).
        this.#queue.start();
        if (!this.#queue.isPaused) this.#queue.pause();
        if (this.#granted !== undefined) {
          // No task took the fleet's slot (none was left to run): end it rather than hold it.
          this.#granted.end();
          this.#granted = undefined;
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** The reason of the current pause, for diagnostics. */
  get pauseReason(): 'server-remaining' | '429' | null {
    return this.pausedForMs > 0 ? this.#pauseReason : null;
  }
}

/**
 * Quota per 60 s window from the plan's requests per second: round(rps × 60), at least 1.
 * No count margin: the time guard of the window absorbs jitter instead (see the module doc).
 */
export function quotaPerWindow(requestsPerSecond: number): number {
  if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond)) {
    throw new TypeError(`Expected \`requestsPerSecond\` to be a positive number, got \`${requestsPerSecond}\``);
  }
  return Math.max(1, Math.round(requestsPerSecond * 60));
}

/**
 * The execute bucket's rate for a plan: keyless 20 RPS, Free 50 RPS, paid 100 RPS.
 * A plan is recognised by its main-bucket rate (keyless 0.5, Free 1, paid ≥ 10).
 */
export function executeRequestsPerSecond(mainRequestsPerSecond: number, keyless: boolean): number {
  if (keyless || mainRequestsPerSecond < 1) return 20;
  if (mainRequestsPerSecond < 10) return 50;
  return 100;
}
