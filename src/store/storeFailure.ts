/**
 * Store failures an operator can fix, told apart from bugs: a data directory that is a file or
 * read-only, a database file that cannot be written, a write lock held too long by another
 * connection. Each gets its own code and a message that says what to do; the CLI exits with a code
 * the systemd unit does not restart on, since restarting cannot fix any of them.
 */
import { StoreError } from './errors.js';

const READ_ONLY = new Set([
  'EROFS',
  'EACCES',
  'EPERM',
  'SQLITE_READONLY',
  'SQLITE_READONLY_DIRECTORY',
  'SQLITE_READONLY_DBMOVED',
  'SQLITE_READONLY_CANTINIT',
  'SQLITE_READONLY_RECOVERY',
  'SQLITE_CANTOPEN',
]);
const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY']);

/** The operator-fixable StoreError for `error` at `file`, or `error` itself when it is something else. */
export function storeFailure(error: unknown, file: string): unknown {
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  const which = typeof cause === 'string' ? cause : typeof code === 'string' ? code : '';
  if (error instanceof StoreError && error.code !== 'STORE_OPEN_FAILED') return error;
  if (which === 'ENOTDIR' || which === 'EEXIST') {
    return new StoreError('STORE_NOT_A_DIRECTORY', `${file}: data_dir is not a directory: point data_dir at a directory (or move the file away)`, {
      cause: error,
      details: { file },
    });
  }
  if (READ_ONLY.has(which)) {
    return new StoreError(
      'STORE_READ_ONLY',
      `${file} cannot be written (${which}): make data_dir and its files writable by the daemon's user, or mount it read-write`,
      { cause: error, details: { file, code: which } },
    );
  }
  if (BUSY.has(which)) {
    return new StoreError(
      'STORE_BUSY',
      `${file} is locked by another connection (${which}): stop whatever holds it (another jupbot, an sqlite3 shell in a transaction) and start again`,
      { cause: error, details: { file, code: which } },
    );
  }
  return error;
}
