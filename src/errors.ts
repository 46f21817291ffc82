import type { ErrorCode } from './errorCatalogue.js';

/**
 * The base of every error jupbot raises on purpose. `code` is stable and comes from the error
 * catalogue (errorCatalogue.ts): alerting and the audit log key on it, never on message text.
 */
export class JupbotError extends Error {
  override name = 'JupbotError';
  readonly code: ErrorCode;
  /** Structured context for the audit log. Must never hold a secret. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...options.details });
  }
}

/** The message of anything thrown, for one-line reports. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}
