import { ManualClock } from '../clock.js';

/**
 * A ManualClock that knows when its next sleeper is due, so a driver can advance exactly to it and
 * let the woken work finish before time moves again. Without that, one `advance(60 s)` would wake a
 * poller at +5 s and run on to +60 s while its HTTP request is still on the wire: its 10 s timeout
 * would fire in a fault-free run, and the outcome would depend on real I/O speed.
 */
export class SteppingClock extends ManualClock {
  readonly #wakes = new Set<{ readonly at: number }>();

  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const entry = { at: this.monotonic() + Math.max(0, ms) };
    this.#wakes.add(entry);
    return super.sleep(ms, signal).finally(() => this.#wakes.delete(entry));
  }

  /** Monotonic time of the earliest pending sleep, or undefined when nothing sleeps. */
  nextWake(): number | undefined {
    let next: number | undefined;
    for (const { at } of this.#wakes) if (next === undefined || at < next) next = at;
    return next;
  }
}
