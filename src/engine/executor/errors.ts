import type { CodeOf } from '../../errorCatalogue.js';
import { JupbotError } from '../../errors.js';

/**
 * Why the executor failed an intent for good (besides a GuardRefusal, `GUARD_REFUSED`): the
 * executor's codes of the error catalogue (errorCatalogue.ts). They land in `intents.error_code`
 * and the `intent.failed` action.
 */
export type ExecutorErrorCode = CodeOf<'executor'>;

/** The intent must not be carried out: it is failed (recorded) and never retried. */
export class IntentRefusedError extends JupbotError {
  override name = 'IntentRefusedError';
  declare readonly code: ExecutorErrorCode;

  constructor(code: ExecutorErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}

/**
 * Not a failure: the intent is waiting for someone else (a keeper to fill the order its landed
 * transaction opened). It stays where it is and the next pass looks again; recorded as
 * `intent.waiting`, logged at info, and not counted as an error.
 */
export class IntentWaitingError extends JupbotError {
  override name = 'IntentWaitingError';

  declare readonly code: ExecutorErrorCode;

  constructor(code: ExecutorErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}
