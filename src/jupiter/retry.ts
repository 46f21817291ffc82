/**
 * The retry policy, as pure functions (table-tested in test/unit/jupiter/retry.test.ts).
 *
 * Only idempotent reads retry by themselves, and only on 429, 5xx, network failures, timeouts and
 * unreadable bodies. Anything that changes state (execute, order create, PATCH, cancel, confirm-cancel,
 * deposit craft, sell, claim, auth) never retries here: it throws a typed error and the caller
 * reconciles (re-send the same signed bytes, or query state).
 */
import type { Random } from '../random.js';
import { ApiError, type HttpMethod, TransportError } from './errors.js';

export interface BackoffOptions {
  /** First delay. @default 500 */
  baseMs?: number;
  /** Ceiling of any delay. @default 30000 */
  capMs?: number;
}

/** Whether `error`, thrown by a call with this method and idempotency, may be retried automatically. */
export function isRetryable(error: unknown, method: HttpMethod, idempotent = method === 'GET'): boolean {
  if (!idempotent) return false;
  if (error instanceof ApiError) {
    // 200-with-failure errors (order errorCode, execute Failed) carry status 200: never retried.
    return error.status === 429 || (error.status >= 500 && error.status !== 501);
  }
  if (error instanceof TransportError) {
    return error.kind === 'network' || error.kind === 'timeout' || error.kind === 'malformed';
  }
  return false;
}

/**
 * Capped exponential backoff with "equal jitter": attempt 1 waits in [base/2, base], attempt n in
 * [d/2, d] with d = min(cap, base·2^(n-1)). Never 0, so a failing call can never loop hot.
 */
export function backoffMs(attempt: number, random: Random, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 500;
  const cap = options.capMs ?? 30_000;
  const n = Math.max(1, Math.floor(attempt));
  const ceiling = Math.min(cap, base * 2 ** Math.min(n - 1, 30));
  const half = ceiling / 2;
  return Math.round(half + random.next() * half);
}

/**
 * How long to wait before retry number `attempt` (1-based) of a failed read. A 429 defers to the
 * limiter: its bucket is already paused until the server's reset, so the retry just queues again
 * (0 here). Everything else backs off.
 */
export function retryDelayMs(error: unknown, attempt: number, random: Random, options: BackoffOptions = {}): number {
  if (error instanceof ApiError && error.status === 429) return 0;
  return backoffMs(attempt, random, options);
}

/**
 * How long a 429 pauses its bucket, from the answer's headers (pure: `nowMs` is the wall clock).
 * Order of preference: `Retry-After` (seconds or HTTP date; undocumented by Jupiter but honoured),
 * then `x-ratelimit-reset` (absolute Unix seconds), then capped exponential backoff on the count of
 * consecutive 429s. The result is clamped to [minMs, maxMs] so a stale or skewed header can neither
 * make the bucket spin nor freeze it for longer than one window.
 */
export function rateLimitPauseMs(
  headers: { retryAfter: string | null; reset: string | null },
  nowMs: number,
  consecutive429s: number,
  random: Random,
  options: { minMs?: number; maxMs?: number; backoff?: BackoffOptions } = {},
): { waitMs: number; source: 'retry-after' | 'reset' | 'backoff' } {
  const minMs = options.minMs ?? 250;
  const maxMs = options.maxMs ?? 61_000;
  const clamp = (ms: number): number => Math.min(maxMs, Math.max(minMs, Math.ceil(ms)));
  const retryAfter = parseRetryAfter(headers.retryAfter, nowMs);
  if (retryAfter !== null) return { waitMs: clamp(retryAfter), source: 'retry-after' };
  const reset = parseResetMs(headers.reset);
  if (reset !== null && reset > nowMs) return { waitMs: clamp(reset - nowMs), source: 'reset' };
  return { waitMs: clamp(backoffMs(consecutive429s, random, { baseMs: 1000, capMs: 30_000, ...options.backoff })), source: 'backoff' };
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; null when absent or invalid. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

/** `x-ratelimit-reset` (absolute Unix seconds) as epoch milliseconds; null when absent or invalid. */
export function parseResetMs(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value.trim());
  return Number.isFinite(n) && n > 0 ? n * 1000 : null;
}
