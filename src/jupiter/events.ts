/**
 * The client's event map, for metrics and for tests that await what happened instead of sleeping.
 */
import type { Bucket } from './bucket.js';

export interface JupiterEvents {
  /** One HTTP exchange finished (any status), or failed below HTTP (`status: null`). */
  request: {
    method: string;
    route: string;
    bucket: Bucket;
    status: number | null;
    durationMs: number;
    attempt: number;
    requestId: string | null;
    /** The error code when the exchange ended in an error. */
    code: string | null;
    /** The answer's own words on an error status (scrubbed): the gateway's `message`, a product's `error`; else null. */
    reason?: string | null;
  };
  /** A bucket waits before it may send: its own window is full, the server said 0 remain, or a 429. */
  ratelimited: { bucket: Bucket; waitMs: number; reason: 'window' | 'server-remaining' | '429'; source?: string };
  /** Queue depth of a bucket changed (requests waiting for a slot). */
  queue: { bucket: Bucket; size: number };
  /** A read is about to be retried after `delayMs`. */
  retry: { method: string; route: string; attempt: number; delayMs: number; code: string };
  /**
   * A request reached its bucket's limiter and waits for a slot. `request` numbers the bucket's
   * requests from 1, so a test can pair it with its `dispatch` and see who went out while it waited.
   */
  enqueue: { bucket: Bucket; priority: number; route: string; request: number };
  /** A request left its bucket's queue and is being sent, `waitedMs` (the limiter's clock) after its `enqueue`. */
  dispatch: { bucket: Bucket; priority: number; route: string; request: number; waitedMs: number };
}
