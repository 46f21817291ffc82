import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { errorMessage } from '../errors.js';
import { StoreError } from './errors.js';

/** A better-sqlite3 connection. Re-exported so callers need not import the driver's types. */
export type Db = Database.Database;

/** A prepared statement with positional parameters. */
export type Statement = Database.Statement<unknown[]>;

/** A function wrapped by `db.transaction()`. */
export type Transaction<F extends (...args: never[]) => unknown> = Database.Transaction<F>;

export interface OpenDatabaseOptions {
  /**
   * When a commit is durable.
   * - `FULL` (default): every commit fsyncs the WAL. A row written just before a power cut is still
   *   there afterwards, which the journal relies on (a signed transaction's row must exist before the
   *   transaction is sent). Costs one fsync per commit: hundreds to thousands of commits a second
   *   depending on the disk (bench/store.ts measures it), far above the few rows a second the
   *   daemon writes.
   * - `NORMAL`: fsync only at checkpoints. The database cannot corrupt, but the last commits before a
   *   power cut (not a process crash) may vanish. For benchmarks and throwaway paper runs only.
   * @default 'FULL'
   */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * Open without write access (the `audit` commands). The file must exist; pragmas that write
   * (journal_mode) are skipped. SQLite may still create the `-wal`/`-shm` side files, as any reader
   * of a WAL database does.
   * @default false
   */
  readonly?: boolean;
}

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;
/**
 * SQLite's page cache per connection, in KiB (better-sqlite3 builds with 16 MiB). The daemon's hot
 * rows (open intents, live orders, recent fills) fit in a fraction of this; a bigger cache only
 * holds resident memory for pages the operating system's file cache keeps warm anyway.
 */
const CACHE_KIB = 4096;
/** Truncate the WAL to this size after a checkpoint, so a burst of writes does not leave a huge file. */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

function isMemory(file: string): boolean {
  return file === ':memory:' || file === '';
}

/**
 * Opens a SQLite database with jupbot's pragmas: WAL (readers never block the writer, so `audit`
 * can run against a live daemon), foreign keys enforced, a busy timeout instead of immediate
 * "database is locked", and `synchronous` as documented on {@link OpenDatabaseOptions}.
 * Creates the parent directory of a new file. `:memory:` works (tests).
 *
 * @example
 * const db = openDatabase(databaseFile(config.dataDir, 'paper'));
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const readonly = options.readonly ?? false;
  const memory = isMemory(file);
  if (!memory && !readonly) {
    // The journal and the audit log are nobody else's business: the directory 0700, the files 0600,
    // whatever the umask (SQLite gives the -wal and -shm files the database file's mode).
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  }

  let db: Db;
  try {
    db = new Database(file, { readonly, fileMustExist: readonly });
  } catch (error) {
    throw new StoreError('STORE_OPEN_FAILED', `cannot open database ${file}: ${errorMessage(error)}`, {
      cause: error,
      details: { file },
    });
  }

  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma(`cache_size = -${CACHE_KIB}`);
    db.pragma('foreign_keys = ON');
    // Views and triggers in the file may only call built-in functions (defence against a crafted file).
    db.pragma('trusted_schema = OFF');
    if (!readonly) {
      const mode = String(db.pragma('journal_mode = WAL', { simple: true }));
      // In-memory databases report 'memory'; any other non-WAL answer (e.g. a network file system
      // without shared memory) would silently lose the reader/writer concurrency we rely on.
      if (!memory && mode !== 'wal') {
        throw new StoreError('STORE_WAL_UNAVAILABLE', `cannot enable WAL on ${file} (journal_mode is ${mode})`, {
          details: { file, mode },
        });
      }
      db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    }
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    // The first pragma is the first read of the file: "file is not a database" surfaces here.
    throw new StoreError('STORE_OPEN_FAILED', `cannot open database ${file}: ${errorMessage(error)}`, {
      cause: error,
      details: { file, sqlite: (error as { code?: unknown }).code },
    });
  }
  return db;
}
