/**
 * The fleet's limiters as one story: every `enqueue` and `dispatch` of every daemon, in the order
 * they happened in this one process, so "did any daemon send a poll while some daemon's order work
 * waited for a slot?" is a question about positions in one list, not about clock readings that many
 * events share.
 */
import type { Clock } from '../../../src/clock.js';
import type { Bucket } from '../../../src/jupiter/bucket.js';
import type { JupiterEvents } from '../../../src/jupiter/events.js';
import { Priority } from '../../../src/jupiter/limiter.js';
import type { TypedEmitter } from '../../../src/typedEmitter.js';

export interface LimiterStep {
  readonly kind: 'enqueue' | 'dispatch';
  readonly daemon: number;
  readonly bucket: Bucket;
  readonly priority: number;
  readonly route: string;
  /** The bucket's number for the request: with `daemon` and `bucket`, pairs an enqueue with its dispatch. */
  readonly request: number;
  /** Dispatch only: how long it waited for a slot. */
  readonly waitedMs: number;
  readonly at: number;
}

/** Order work: placing or exiting (a swap's quote and execute, a deposit, a cancel). */
export const isOrderWork = (priority: number): boolean => priority >= Priority.Place;
/** Polls: market data and the state of positions and orders. */
export const isPoll = (priority: number): boolean => priority <= Priority.PollState;

export interface PollPastOrderWork {
  /** The order work that waited for a slot (its dispatch). */
  readonly waiting: LimiterStep;
  /** A poll some daemon sent meanwhile. */
  readonly poll: LimiterStep;
}

export class LimiterTrace {
  readonly steps: LimiterStep[] = [];

  constructor(private readonly clock: Clock) {}

  /** Follows one daemon's client from now on. */
  watch(daemon: number, events: TypedEmitter<JupiterEvents>): void {
    events.on('enqueue', (e) => this.steps.push({ kind: 'enqueue', daemon, ...e, waitedMs: 0, at: this.clock.now() }));
    events.on('dispatch', (e) => this.steps.push({ kind: 'dispatch', daemon, ...e, at: this.clock.now() }));
  }

  dispatches(filter: (s: LimiterStep) => boolean = () => true): LimiterStep[] {
    return this.steps.filter((s) => s.kind === 'dispatch' && filter(s));
  }

  /** The longest wait for a slot among the dispatches `filter` picks (0 when none). */
  maxWaitMs(filter: (s: LimiterStep) => boolean): number {
    return Math.max(0, ...this.dispatches(filter).map((s) => s.waitedMs));
  }

  /**
   * Every poll dispatched, by any daemon, between the enqueue and the dispatch of an order-work
   * request that had to wait for its slot (waitedMs > 0): a poll that took a slot the order work
   * was waiting for. Order work sent at once is not waiting, whatever was sent in the same instant.
   */
  pollsPastWaitingOrderWork(): PollPastOrderWork[] {
    const key = (s: LimiterStep): string => `${s.daemon}/${s.bucket}/${s.request}`;
    const enqueuedAt = new Map<string, number>();
    this.steps.forEach((s, i) => {
      if (s.kind === 'enqueue') enqueuedAt.set(key(s), i);
    });
    const found: PollPastOrderWork[] = [];
    this.steps.forEach((waiting, end) => {
      if (waiting.kind !== 'dispatch' || !isOrderWork(waiting.priority) || waiting.waitedMs === 0) return;
      const begin = enqueuedAt.get(key(waiting));
      if (begin === undefined) return; // enqueued before the trace began
      for (let i = begin + 1; i < end; i++) {
        const poll = this.steps[i] as LimiterStep;
        if (poll.kind === 'dispatch' && isPoll(poll.priority)) found.push({ waiting, poll });
      }
    });
    return found;
  }

  /** Order work enqueued and never dispatched (aborted, or still waiting when the run ended). */
  orderWorkNeverSent(): LimiterStep[] {
    const sent = new Set(this.dispatches().map((s) => `${s.daemon}/${s.bucket}/${s.request}`));
    return this.steps.filter((s) => s.kind === 'enqueue' && isOrderWork(s.priority) && !sent.has(`${s.daemon}/${s.bucket}/${s.request}`));
  }
}
