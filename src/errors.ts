/**
 * The base of every error jupbot raises on purpose. `code` is stable and listed in
 * docs/operations.md: alerting and the audit log key on it, never on message text.
 * Codes are never reused for a different meaning.
 */
export class JupbotError extends Error {
  override name = 'JupbotError';
  readonly code: string;
  /** Structured context for the audit log. Must never hold a secret. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
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
