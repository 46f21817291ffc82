import { type Clock, realTimeOf } from './clock.js';

/**
 * A clock that runs a base clock `speed` times faster, from the base's current instant. Paper mode
 * shares one ScaledClock between the daemon and the embedded simulator, so both see the same time:
 * at speed 60 an hour of strategy behaviour takes a minute. Sleeps are shortened by the same factor.
 * Its {@link realTime} is the base's: request timeouts and network backoffs wait on that, never
 * shortened (a request takes as long on the wire whatever the simulation's speed).
 */
export class ScaledClock implements Clock {
  readonly #base: Clock;
  readonly #speed: number;
  readonly #originWall: number;
  readonly #originMonotonic: number;

  /** `startAt`: the wall time it reads now (by default the base's), e.g. a paper world's time resumed. */
  constructor(base: Clock, speed: number, startAt: number = base.now()) {
    if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`speed must be a positive number, got ${speed}`);
    this.#base = base;
    this.#speed = speed;
    this.#originWall = startAt;
    this.#originMonotonic = base.monotonic();
  }

  get speed(): number {
    return this.#speed;
  }

  /** The real time this clock is scaled from. */
  get realTime(): Clock {
    return realTimeOf(this.#base);
  }

  now(): number {
    return Math.floor(this.#originWall + (this.#base.monotonic() - this.#originMonotonic) * this.#speed);
  }

  monotonic(): number {
    return (this.#base.monotonic() - this.#originMonotonic) * this.#speed;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#base.sleep(Math.max(0, ms) / this.#speed, signal);
  }
}
