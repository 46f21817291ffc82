/**
 * Abort-signal linking without `AbortSignal.any`: the daemon passes one long-lived stop signal to every
 * call, and signals combined with `any()` stay referenced by their long-lived sources (a leak in a
 * process that runs for weeks). Here every listener is removed when the call settles.
 *
 * A shared stop signal legitimately carries one listener per call in flight, so its listener warning
 * threshold is raised (to {@link SHARED_SIGNAL_LISTENERS}); Node would otherwise warn of a leak at 11.
 */
import { getMaxListeners, setMaxListeners } from 'node:events';

/** Listener threshold set on source signals (the queue of a saturated bucket can hold thousands). */
export const SHARED_SIGNAL_LISTENERS = 100_000;

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Detaches from the sources. Call it when the operation settles. */
  dispose(): void;
}

/** A signal that aborts when any source aborts (with that source's reason), or when `abort()` is called. */
export function linkSignals(...sources: (AbortSignal | undefined)[]): LinkedSignal & { abort(reason: unknown): void } {
  const controller = new AbortController();
  const detach: (() => void)[] = [];
  for (const source of sources) {
    if (!source) continue;
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const max = getMaxListeners(source);
    if (max !== 0 && max < SHARED_SIGNAL_LISTENERS) setMaxListeners(SHARED_SIGNAL_LISTENERS, source);
    const onAbort = (): void => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    detach.push(() => source.removeEventListener('abort', onAbort));
  }
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => {
      for (const d of detach.splice(0)) d();
    },
  };
}
