import { JupbotError } from '../errors.js';

/**
 * Stable codes of the store's errors, catalogued in docs/operations.md. Never reuse one for another meaning.
 */
export type StoreErrorCode =
  /** The database file could not be opened. */
  | 'STORE_OPEN_FAILED'
  /** journal_mode=WAL could not be enabled (e.g. a network file system). */
  | 'STORE_WAL_UNAVAILABLE'
  /** The migrations directory holds a badly named file, a duplicate number or a gap. */
  | 'STORE_MIGRATIONS_INVALID'
  /** A migration recorded as applied no longer matches its file (edited after release). */
  | 'STORE_MIGRATION_CHANGED'
  /** A migration's SQL failed; its transaction was rolled back. */
  | 'STORE_MIGRATION_FAILED'
  /** The database's schema is newer than this code. */
  | 'STORE_SCHEMA_TOO_NEW'
  /** A value cannot be encoded as canonical JSON. */
  | 'STORE_CANONICAL_JSON'
  /** An audit action is malformed (bad kind, amount without mint, ...). */
  | 'STORE_ACTION_INVALID'
  /** An audit action's data looks like it carries a secret. */
  | 'STORE_ACTION_SECRET'
  /** An intent id the journal does not hold. */
  | 'STORE_INTENT_UNKNOWN'
  /** An intent state change the journal's state machine does not allow. */
  | 'STORE_INTENT_TRANSITION'
  | 'STORE_SIGNATURE_TAKEN'
  /** A journal row that does not parse (a damaged or newer database). */
  | 'STORE_INTENT_ROW_INVALID'
  /** A row of another table that does not parse (a damaged, hand-edited or newer database). */
  | 'STORE_ROW_INVALID'
  /** Another jupbot process holds the data directory's lock. */
  | 'STORE_LOCKED'
  /** The data directory or database file cannot be written (read-only mount, permissions). */
  | 'STORE_READ_ONLY'
  /** `data_dir` names something that is not a directory. */
  | 'STORE_NOT_A_DIRECTORY'
  /** Another connection holds the database's write lock for longer than the busy timeout. */
  | 'STORE_BUSY';

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
