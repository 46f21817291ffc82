/**
 * Store failures an operator can fix, told apart from bugs: a data directory that is a file or
 * read-only, a full disk, a disk that reports I/O errors, a database file that cannot be written, a
 * write lock held too long by another connection. Each gets its own code and a message that names
 * the file, what is wrong and what to do; the CLI exits with the code's exit code (docs/operations.md).
 */
import { StoreError } from './errors.js';

const READ_ONLY_FS = new Set(['EROFS']);
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'SQLITE_CANTOPEN']);
const READ_ONLY = new Set([
  'SQLITE_READONLY',
  'SQLITE_READONLY_DIRECTORY',
  'SQLITE_READONLY_DBMOVED',
  'SQLITE_READONLY_CANTINIT',
  'SQLITE_READONLY_RECOVERY',
  'SQLITE_READONLY_ROLLBACK',
]);
const FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY']);

/** Whether `code` (errno or SQLite's) is an I/O error: the disk failed a read or write. */
export function isIoError(code: string): boolean {
  return code === 'EIO' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_');
}

/** The code a failure carries (its own, or its wrapped cause's); '' when none. */
export function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof cause === 'string' ? cause : typeof code === 'string' ? code : '';
}

/**
 * The operator-fixable StoreError for `which` (an errno or SQLite code) at `file`, or null when it
 * is none of them. `cause` is the original error.
 */
export function storeFailureFor(which: string, file: string, cause: unknown): StoreError | null {
  const options = { cause, details: { file, code: which } };
  if (which === 'ENOTDIR' || which === 'EEXIST') {
    return new StoreError('STORE_NOT_A_DIRECTORY', `${file}: data_dir is not a directory: point data_dir at a directory (or move the file away)`, {
      cause,
      details: { file },
    });
  }
  if (READ_ONLY_FS.has(which)) return new StoreError('STORE_READ_ONLY', `${file} is on a read-only file system (${which}): mount it read-write`, options);
  const fix = "make data_dir and its files writable by the daemon's user, or mount it read-write";
  if (READ_ONLY.has(which)) return new StoreError('STORE_READ_ONLY', `${file} is read-only (${which}): ${fix}`, options);
  if (NOT_WRITABLE.has(which)) return new StoreError('STORE_READ_ONLY', `${file} cannot be written (${which}): ${fix}`, options);
  if (FULL.has(which))
    return new StoreError('STORE_FULL', `${file} cannot be written: its disk is full (${which}): free space on it, or raise the quota`, options);
  if (isIoError(which)) {
    return new StoreError('STORE_IO_ERROR', `${file} cannot be written: the disk reported an I/O error (${which}): check the disk and the kernel log`, options);
  }
  if (BUSY.has(which)) {
    return new StoreError(
      'STORE_BUSY',
      `${file} is locked by another connection (${which}): stop whatever holds it (another jupbot, an sqlite3 shell in a transaction) and start again`,
      options,
    );
  }
  return null;
}

/** The operator-fixable StoreError for `error` at `file`, or `error` itself when it is something else. */
export function storeFailure(error: unknown, file: string): unknown {
  if (error instanceof StoreError && error.code !== 'STORE_OPEN_FAILED') return error;
  return storeFailureFor(failureCode(error), file, error) ?? error;
}
