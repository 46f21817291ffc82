import type { Clock } from '../clock.js';

/**
 * `compute`'s result, shared by every caller: while a computation runs, callers join it instead of
 * starting another, and once it has settled its value is served for `ms` on `clock` before the next
 * caller computes again. N concurrent callers cost one computation, however large N is.
 *
 * A fresh value is returned as is, so a caller can answer without waiting a turn; otherwise the
 * promise of the computation in hand. A computation that fails is not kept: its callers all get its
 * error, and the next caller computes again. Freshness is measured on the monotonic clock, so a wall
 * clock correction neither keeps a value for hours nor throws it away early.
 */
export function sharedFor<T>(ms: number, clock: Clock, compute: () => T | Promise<T>): () => T | Promise<T> {
  let kept: { at: number; value: T } | undefined;
  let running: Promise<T> | undefined;
  return () => {
    if (running !== undefined) return running;
    if (kept !== undefined && clock.monotonic() - kept.at < ms) return kept.value;
    const computation = (async () => compute())();
    running = computation.then(
      (value) => {
        kept = { at: clock.monotonic(), value };
        running = undefined;
        return value;
      },
      (error: unknown) => {
        running = undefined;
        throw error;
      },
    );
    return running;
  };
}
