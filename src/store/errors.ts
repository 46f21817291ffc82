import type { CodeOf } from '../errorCatalogue.js';
import { JupbotError } from '../errors.js';

/** The store's codes: the `store` area of the error catalogue (errorCatalogue.ts), where each is explained. */
export type StoreErrorCode = CodeOf<'store'>;

/** An error raised by the store. */
export class StoreError extends JupbotError {
  override name = 'StoreError';
  declare readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, options);
  }
}

/**
 * The database was written by a newer jupbot: its schema has migrations this code does not know.
 * Raised before anything is written; the CLI maps it to exit code 4 (DatabaseTooNew).
 */
export class SchemaTooNewError extends StoreError {
  override name = 'SchemaTooNewError';

  constructor(
    readonly databaseVersion: number,
    readonly codeVersion: number,
    file?: string,
  ) {
    super(
      'STORE_SCHEMA_TOO_NEW',
      `database${file === undefined ? '' : ` ${file}`} has schema version ${databaseVersion}, newer than this jupbot ` +
        `knows (${codeVersion}): upgrade jupbot; the database was left untouched`,
      { details: { databaseVersion, codeVersion, ...(file === undefined ? {} : { file }) } },
    );
  }
}
