/**
 * The shared poll loop behind every feed (prices, scores, positions, Trigger order and DCA history).
 *
 * One loop per feed: poll, then sleep on the injected Clock until `intervalMs` after the poll
 * started, then poll again. A poll never overlaps the previous one: a slow poll delays the next
 * (which then starts at once) instead of stacking. A failing poll keeps the last good value and its
 * age, counts consecutive failures and emits `failed`; the next success resets the count.
 * Every outcome is an event (`updated`, `failed`) so tests and the daemon await instead of sleeping.
 *
 * A feed can be paused (`paused` says why, or null): its API area is off for this key, or no loaded
 * strategy needs what it reads. A paused feed sends nothing; it looks again every interval (or at
 * `recheck()`) and polls at once when nothing pauses it any more. Its state says why it is paused, so
 * readiness, status and metrics do not count its age against it.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../ops/log.js';
import { TypedEmitter } from '../../typedEmitter.js';

/** A feed is stale once its last success is this many intervals old (/readyz reports it). */
export const FRESH_INTERVALS = 3;

/** What the last failure was, without the error object (safe to serialise into /status). */
export interface FeedError {
  readonly code: string;
  readonly message: string;
  /** Wall time of the failure, UTC epoch ms. */
  readonly at: number;
}

/** A feed's state: the last good value, when it was fetched, and how polling is going. */
export interface FeedState<T> {
  readonly name: string;
  /** The last value a poll returned; undefined until the first success. */
  readonly value: T | undefined;
  /** Wall time of the last success (UTC epoch ms), or null. */
  readonly at: number | null;
  /**
   * Which poll read `value`, counting the polls this process began from 1 (null before the first
   * success): compared with what `pollSoon()` returned, it says whether the read began after that call.
   */
  readonly readNo: number | null;
  /** Milliseconds since the last success (monotonic), or null before the first one. */
  readonly ageMs: number | null;
  readonly lastError: FeedError | null;
  readonly consecutiveFailures: number;
  /** `ageMs < 3 × intervalMs`: what /readyz asks of every feed. False before the first success. */
  readonly fresh: boolean;
  readonly intervalMs: number;
  /** Whether a poll is running now. */
  readonly polling: boolean;
  /** Why the feed sends nothing now (its area is off, or nothing needs it), or null while it polls. */
  readonly paused: string | null;
}

export interface FeedEvents<T> {
  /** A poll succeeded; `value` is now the feed's value. */
  updated: { feed: string; value: T; at: number; durationMs: number };
  /** A poll failed; the previous value (if any) is kept. `paused`: the failure paused the feed (its area was refused), why; else null. */
  failed: {
    feed: string;
    error: unknown;
    code: string;
    message: string;
    at: number;
    consecutiveFailures: number;
    durationMs: number;
    paused: string | null;
  };
  /** The feed stopped polling: `reason` says why (its area is off, or nothing needs it). */
  paused: { feed: string; reason: string };
  /** A paused feed polls again. */
  resumed: { feed: string };
  /** The loop ended (its signal aborted). */
  stopped: { feed: string };
}

/** The read side every feed offers: enough for the executor, /readyz, /status and metrics. */
export interface Feed<T> {
  readonly name: string;
  readonly intervalMs: number;
  readonly events: TypedEmitter<FeedEvents<T>>;
  /** A snapshot of the state, ages computed now. */
  state(): FeedState<T>;
  /**
   * Cuts the current wait short so the next poll starts now (or right after the running one). Never
   * overlaps. Returns the number of polls begun so far: a value whose `readNo` is above it was read
   * by a poll that began after this call (an exact order where the clock may not move between them).
   */
  pollSoon(): number;
  /** A paused feed looks at once whether it may poll again (a strategy that needs it was loaded, its area answers); no effect on one that polls. */
  recheck(): void;
  /** Settles once the loop has stopped (after the signal given to `start` aborts). */
  readonly done: Promise<void>;
}

export interface PollerOptions<T> {
  readonly name: string;
  readonly intervalMs: number;
  readonly clock: Clock;
  /** One poll. Receives the stop signal; throws on failure. */
  readonly poll: (signal: AbortSignal) => Promise<T>;
  readonly log?: Logger | undefined;
  /** Why the feed must not poll now, or null (read before every poll and by `state()`). @default never paused */
  readonly paused?: (() => string | null) | undefined;
}

/** A feed whose loop is started explicitly. */
export interface Poller<T> extends Feed<T> {
  /** Starts the loop (first poll at once). Stops when `signal` aborts. Calling it twice throws. */
  start(signal: AbortSignal): void;
}

/** A stable code for any thrown value: the JupbotError code, else the error's name. */
export function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    if (error instanceof Error) return error.name;
  }
  return 'UNKNOWN';
}

/** Creates a feed's poll loop (not started). */
export function createPoller<T>(options: PollerOptions<T>): Poller<T> {
  const { name, intervalMs, clock, poll, log } = options;
  if (!(Number.isFinite(intervalMs) && intervalMs > 0)) throw new RangeError(`feed ${name}: intervalMs must be > 0, got ${intervalMs}`);
  const events = new TypedEmitter<FeedEvents<T>>();
  let value: T | undefined;
  let at: number | null = null;
  let readNo: number | null = null;
  /** Polls begun so far: the next one is numbered `begun + 1`. */
  let begun = 0;
  let atMonotonic: number | null = null;
  let lastError: FeedError | null = null;
  let consecutiveFailures = 0;
  let polling = false;
  let started = false;
  let wake: AbortController | null = null;
  let wakeRequested = false;
  /** The reason the loop last saw it paused, while it is; null while it polls. */
  let pausedBy: string | null = null;
  const pausedNow = (): string | null => options.paused?.() ?? null;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const state = (): FeedState<T> => {
    const ageMs = atMonotonic === null ? null : clock.monotonic() - atMonotonic;
    return {
      name,
      value,
      at,
      readNo,
      ageMs,
      lastError,
      consecutiveFailures,
      fresh: ageMs !== null && ageMs < FRESH_INTERVALS * intervalMs,
      intervalMs,
      polling,
      paused: pausedNow(),
    };
  };

  const once = async (signal: AbortSignal): Promise<void> => {
    const began = clock.monotonic();
    begun += 1;
    const no = begun;
    polling = true;
    try {
      const next = await poll(signal);
      if (signal.aborted) return;
      value = next;
      readNo = no;
      at = clock.now();
      atMonotonic = clock.monotonic();
      if (consecutiveFailures > 0) log?.info({ feed: name, failures: consecutiveFailures }, `feed ${name} recovered`);
      consecutiveFailures = 0;
      events.emit('updated', { feed: name, value: next, at, durationMs: clock.monotonic() - began });
    } catch (error) {
      if (signal.aborted) return;
      consecutiveFailures += 1;
      const failure: FeedError = { code: errorCode(error), message: errorMessage(error), at: clock.now() };
      lastError = failure;
      // A refusal that turned the feed's area off pauses it: whoever watches areas says so once, this is detail.
      const paused = pausedNow();
      if (paused !== null) {
        log?.info({ feed: name, code: failure.code, consecutiveFailures }, `feed ${name} poll failed (${failure.code}): ${failure.message}; paused: ${paused}`);
      } else {
        // The first failure of a run at warn, the rest at debug: a long outage must not flood the log.
        const level = consecutiveFailures === 1 ? 'warn' : 'debug';
        log?.[level](
          { feed: name, code: failure.code, err: error, consecutiveFailures },
          `feed ${name} poll failed (${failure.code}): ${failure.message}; polled again on schedule, further failures of this outage at debug`,
        );
      }
      events.emit('failed', { feed: name, error, ...failure, consecutiveFailures, durationMs: clock.monotonic() - began, paused });
    } finally {
      polling = false;
    }
  };

  /** True while the loop may poll; on a change, says so (event, debug line) once. */
  const mayPoll = (): boolean => {
    const why = pausedNow();
    if (why !== null && pausedBy === null) {
      pausedBy = why;
      log?.debug({ feed: name, reason: why }, `feed ${name} paused: ${why}`);
      events.emit('paused', { feed: name, reason: why });
    } else if (why === null && pausedBy !== null) {
      pausedBy = null;
      log?.debug({ feed: name }, `feed ${name} polls again`);
      events.emit('resumed', { feed: name });
    }
    return why === null;
  };

  const loop = async (signal: AbortSignal): Promise<void> => {
    while (!signal.aborted) {
      const began = clock.monotonic();
      wakeRequested = false;
      if (mayPoll()) await once(signal);
      if (signal.aborted || wakeRequested) continue;
      const waitMs = Math.max(0, intervalMs - (clock.monotonic() - began));
      wake = new AbortController();
      const stopWaiting = (): void => wake?.abort();
      signal.addEventListener('abort', stopWaiting, { once: true });
      try {
        await clock.sleep(waitMs, wake.signal);
      } catch {
        // Woken early by pollSoon() or by the stop signal; the loop condition decides which.
      } finally {
        signal.removeEventListener('abort', stopWaiting);
        wake = null;
      }
    }
  };

  return {
    name,
    intervalMs,
    events,
    state,
    done,
    pollSoon() {
      wakeRequested = true;
      wake?.abort();
      return begun;
    },
    recheck() {
      if (pausedBy === null) return;
      wakeRequested = true;
      wake?.abort();
    },
    start(signal) {
      if (started) throw new Error(`feed ${name} already started`);
      started = true;
      void loop(signal)
        .catch((error: unknown) =>
          log?.error(
            { feed: name, err: error },
            `feed ${name} stopped after an unexpected error: ${errorMessage(error)}; /readyz reports it stale until a restart`,
          ),
        )
        .finally(() => {
          events.emit('stopped', { feed: name });
          resolveDone();
        });
    },
  };
}
