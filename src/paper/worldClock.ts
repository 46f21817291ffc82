import type { Clock } from '../clock.js';

/**
 * The simulated world's clock while it is rebuilt and after: first it reads the instant of the input
 * being replayed, then it follows the daemon's clock. A replay never sleeps (what waits on the clock
 * in the simulator is an injected fault, and faults are not kept).
 */
export class WorldClock implements Clock {
  #at: number;
  #source: Clock | undefined;

  constructor(start: Clock | { readonly at: number }) {
    if ('at' in start) this.#at = start.at;
    else {
      this.#source = start;
      this.#at = start.now();
    }
  }

  /** Replay: the world's time is now `at`. */
  replayAt(at: number): void {
    if (this.#source !== undefined) throw new Error('the world clock already follows the daemon');
    this.#at = Math.max(this.#at, at);
  }

  /** From here on, the daemon's clock is the world's (never earlier than the instant already reached). */
  follow(clock: Clock): void {
    this.#source = clock;
  }

  now(): number {
    return this.#source === undefined ? this.#at : Math.max(this.#at, this.#source.now());
  }

  monotonic(): number {
    return this.#source?.monotonic() ?? this.#at;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.#source === undefined) return Promise.reject(new Error('the paper world does not wait while it is rebuilt'));
    return this.#source.sleep(ms, signal);
  }
}
