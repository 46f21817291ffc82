/**
 * The account figures of the last `settleMs`, so a protection judges only what lasted.
 *
 * Equity and exposure add feeds read at different paces: the wallet every `poll.prices`, the vault
 * deposits from the order mirror every `poll.orders`, the prediction positions every
 * `poll.positions`. When an order fills or a position is sold, the wallet holds the proceeds a poll
 * or two before the mirror drops the deposit (both are counted: the figure reads too high); when a
 * deposit or a purchase leaves the wallet before its order or position is listed, it reads too low.
 * Either disagreement lasts until the slower feed catches up, so a figure held over a window longer
 * than that lag is one every feed agrees with.
 *
 * Each reading holds from its time until the next one. The window spans `settleMs` once a reading
 * at or before `now - settleMs` is kept (the one in force when the window opened); until then there
 * is nothing to judge. `lowest()` is a level the figure kept over the whole window, `highest()` a
 * level it never rose above: a rise counts once the lowest has risen, a fall once the highest has.
 * No timer: readings come with the feeds' reads, on the daemon's clock.
 */
import type { Fixed } from '../money/decimal.js';

interface Reading {
  readonly at: number;
  readonly value: Fixed;
}

export class SettlingWindow {
  readonly #settleMs: number;
  #readings: Reading[] = [];

  constructor(settleMs: number) {
    this.#settleMs = settleMs;
  }

  /** Adds the reading of `at` and forgets what the window no longer needs. */
  add(at: number, value: Fixed): void {
    // A clock that went back (a manual one in tests, a corrected wall clock) starts afresh.
    if (this.#readings.some((r) => r.at > at)) this.#readings = [];
    this.#readings.push({ at, value });
    const opens = at - this.#settleMs;
    // Keep the newest reading at or before the window's opening (it was in force then), not older ones.
    let first = 0;
    while (first + 1 < this.#readings.length && (this.#readings[first + 1]?.at ?? Infinity) <= opens) first += 1;
    if (first > 0) this.#readings = this.#readings.slice(first);
  }

  /** Whether the readings cover the whole window up to the newest one. */
  spans(): boolean {
    const first = this.#readings[0];
    const last = this.#readings.at(-1);
    return first !== undefined && last !== undefined && first.at <= last.at - this.#settleMs;
  }

  /** The lowest figure the window held, or null until it spans `settleMs`. */
  lowest(): Fixed | null {
    return this.spans() ? this.#readings.reduce((low, r) => (r.value < low ? r.value : low), this.#readings[0]?.value ?? 0n) : null;
  }

  /** The highest figure the window held, or null until it spans `settleMs`. */
  highest(): Fixed | null {
    return this.spans() ? this.#readings.reduce((high, r) => (r.value > high ? r.value : high), this.#readings[0]?.value ?? 0n) : null;
  }
}
