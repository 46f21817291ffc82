/**
 * Whether the daemon's database can be written, as the daemon's own writes say. Every statement
 * that changes the database, every `exec` and every transaction on the connection is watched: one
 * that fails because the disk is full, read-only or failing (SQLITE_FULL, SQLITE_READONLY…,
 * SQLITE_IOERR…) puts the store in a fault, the next write that commits ends it. `/readyz` reads it.
 *
 * Recorded rather than probed: a probe would add writes of its own (and take the write lock, which
 * `/readyz` must never wait on), and would still not answer for the daemon's writes: a one-page
 * probe can land in WAL space already allocated while the daemon's larger writes fail for want of a
 * page. The daemon's writes are the question itself, and watching them costs a closure call per
 * write. The price: while nothing writes, the fault stays as the last write left it (price samples
 * are written every `history.sample_every` while a strategy needs prices, so that is not for long).
 */
import { accessSync, constants as fsConstants } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { Db, Statement } from './db.js';
import type { StoreError } from './errors.js';
import { isIoError, storeFailureFor } from './storeFailure.js';

/** Why the database cannot be written, since when, and how many writes failed since. */
export interface WriteFault {
  /** STORE_FULL, STORE_READ_ONLY or STORE_IO_ERROR, with a message naming the file and the fix. */
  readonly error: StoreError;
  /** When the first write of this fault failed (epoch ms, the injected clock). */
  readonly since: number;
  readonly failures: number;
}

export interface WriteHealth {
  /** The fault while the last write failed for the storage's sake; null once a write commits. */
  fault(): WriteFault | null;
}

export interface WatchWritesOptions {
  /** The database file, named in the faults. */
  readonly file: string;
  readonly clock: Clock;
  /** Told when writes start failing, fail for another reason, or work again (`fault` null). */
  readonly onChange?: ((fault: WriteFault | null, previous: WriteFault | null) => void) | undefined;
}

const FAULTS = new Set(['STORE_FULL', 'STORE_READ_ONLY', 'STORE_IO_ERROR']);

function readOnlyFileSystem(dir: string): boolean {
  try {
    accessSync(dir, fsConstants.W_OK);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EROFS';
  }
}

/**
 * The storage fault a database error stands for, or null when it is another error (a constraint,
 * a bug, a busy lock). SQLite reports a write to a file system remounted read-only as an I/O error:
 * the data directory is asked which it is.
 */
export function writeFaultOf(error: unknown, file: string): StoreError | null {
  if (!(error instanceof Database.SqliteError)) return null;
  const which = isIoError(error.code) && readOnlyFileSystem(dirname(file)) ? 'EROFS' : error.code;
  const fault = storeFailureFor(which, file, error);
  return fault !== null && FAULTS.has(fault.code) ? fault : null;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Watches every write of `db` from now on (statements prepared before are not watched). */
export function watchWrites(db: Db, options: WatchWritesOptions): WriteHealth {
  const { file, clock, onChange } = options;
  let current: WriteFault | null = null;
  // A statement's write inside a transaction counts once the outermost transaction commits.
  let wroteInTransaction = false;
  // A statement's failure inside a transaction is thrown again by the transaction: counted once.
  const counted = new WeakSet<object>();

  const failed = (error: unknown): void => {
    if (typeof error !== 'object' || error === null || counted.has(error)) return;
    counted.add(error);
    const fault = writeFaultOf(error, file);
    if (fault === null) return;
    const previous = current;
    current = { error: fault, since: previous?.since ?? clock.now(), failures: (previous?.failures ?? 0) + 1 };
    if (previous?.error.code !== fault.code) onChange?.(current, previous);
  };
  const committed = (): void => {
    if (current === null) return;
    const previous = current;
    current = null;
    onChange?.(null, previous);
  };

  /** A call that writes on its own or inside the caller's transaction. */
  const write = (call: Method): Method =>
    function (this: unknown, ...args) {
      try {
        const result = call.apply(this, args);
        if (db.inTransaction) wroteInTransaction = true;
        else committed();
        return result;
      } catch (error) {
        failed(error);
        throw error;
      }
    };
  /** A transaction function (one of its variants): what counts is whether the outermost one commits. */
  const transaction = (call: Method): Method =>
    function (this: unknown, ...args) {
      const outermost = !db.inTransaction;
      try {
        const result = call.apply(this, args);
        if (outermost && wroteInTransaction) committed();
        return result;
      } catch (error) {
        failed(error);
        throw error;
      } finally {
        if (outermost) wroteInTransaction = false;
      }
    };

  const prepareUnwatched = db.prepare.bind(db) as (sql: string) => Statement;
  const execUnwatched = db.exec.bind(db) as Method;
  const transactionUnwatched = db.transaction.bind(db);
  Object.assign(db, {
    prepare(sql: string): Statement {
      const statement = prepareUnwatched(sql);
      if (statement.readonly) return statement;
      return Object.assign(statement, {
        run: write(statement.run.bind(statement)),
        get: write(statement.get.bind(statement)),
        all: write(statement.all.bind(statement)),
      });
    },
    exec: (sql: string): Db => {
      write(execUnwatched)(sql);
      return db;
    },
    transaction(fn: Method): Database.Transaction<Method> {
      const made = transactionUnwatched(fn);
      const main = transaction((...args) => made(...args));
      return Object.assign(main, {
        default: main,
        deferred: transaction((...args) => made.deferred(...args)),
        immediate: transaction((...args) => made.immediate(...args)),
        exclusive: transaction((...args) => made.exclusive(...args)),
        database: db,
      });
    },
  });
  return { fault: () => current };
}
