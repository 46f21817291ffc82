import { formatDuration } from '../config/duration.js';
import { ApiError, TransportError } from './errors.js';

/** Where a failed exchange stands when it is logged. */
export interface FailureAttempt {
  readonly attempt: number;
  readonly maxAttempts: number;
  /** The wait before the next attempt; null when the error goes to the caller. */
  readonly retryInMs: number | null;
  /** Error statuses the call treats as a normal answer (a vault not registered yet). */
  readonly expected?: readonly number[] | undefined;
}

export interface FailureLine {
  readonly level: 'debug' | 'info' | 'warn';
  readonly fields: Record<string, unknown>;
  readonly msg: string;
}

/**
 * The log line of one failed exchange with Jupiter: which request, why, and what happens next — a
 * retry (when), or the error handed to the caller, whose own line says what it does about it. A
 * refusal (4xx) is info: the request was wrong or the state did not allow it, and the caller reports
 * the consequence; an outage (429, 5xx, no answer) is a warning; a status the call expects is
 * debug. Errors that never reached Jupiter (the caller aborted, the client closed, a failed login)
 * are the caller's to report: null.
 */
export function failureLine(error: unknown, at: FailureAttempt): FailureLine | null {
  if (!(error instanceof ApiError) && !(error instanceof TransportError)) return null;
  if (error instanceof TransportError && (error.kind === 'aborted' || error.kind === 'closed')) return null;
  const fields = { method: error.method, route: error.route, status: error.status, code: error.code, requestId: error.requestId, attempt: at.attempt };
  if (error instanceof ApiError && at.retryInMs === null && at.expected?.includes(error.status)) {
    return { level: 'debug', fields, msg: `Jupiter answered ${error.message}: expected, handled by the caller` };
  }
  const next =
    at.retryInMs !== null
      ? `retrying in ${formatDuration(Math.round(at.retryInMs))} (attempt ${at.attempt + 1} of ${at.maxAttempts})`
      : at.attempt > 1
        ? `gave up after ${at.attempt} attempts; the caller decides what to do`
        : 'not retried; the caller decides what to do';
  const refused = error instanceof ApiError && error.status !== 429 && error.status < 500;
  return refused
    ? { level: 'info', fields, msg: `Jupiter refused ${error.message}: ${next}` }
    : { level: 'warn', fields, msg: `Jupiter request failed, ${error.message}: ${next}` };
}
