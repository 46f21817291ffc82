/**
 * How every audit command opens the database: read-only, checked, never migrated. The one that
 * writes (`audit basis set`, an operator's record) opens it writable, checked the same way, and
 * writes through the audit log only.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../exitCodes.js';
import { openDatabase, type Db } from '../store/db.js';
import { StoreError } from '../store/errors.js';
import { schemaStatus } from '../store/migrate.js';
import { isRehearsalDatabase } from '../store/rehearsalMark.js';
import { AuditLog } from '../store/audit.js';
import { storeFailure } from '../store/storeFailure.js';
import { CliExit, type CliContext } from './context.js';

/** Options of `jupbot audit` itself, shared by its subcommands. */
export interface AuditOptions {
  db?: string;
  config?: string;
}

/** Finds the database file from `--db` or the config (its data_dir and mode). */
export type ResolveDb = (options: { db?: string; config?: string }) => Promise<string>;

/**
 * Opens the database read-only after checking it is there and not newer than this code. Never
 * migrates: an auditor's copy must not change by being looked at.
 */
async function openForAudit(ctx: CliContext, resolveDb: ResolveDb, options: AuditOptions, writable = false): Promise<Db> {
  const file = resolve(
    ctx.cwd,
    await resolveDb({
      ...(options.db === undefined ? {} : { db: options.db }),
      ...(options.config === undefined ? {} : { config: options.config }),
    }),
  );
  if (!existsSync(file)) throw new CliExit(ExitCode.NotFound, `no database at ${file}`);
  let db: Db;
  try {
    db = openDatabase(file, { readonly: !writable });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'STORE_OPEN_FAILED') throw new CliExit(ExitCode.NotFound, error.message);
    // A read-only file or directory, a full disk: the operator's to fix, said as such.
    throw writable ? storeFailure(error, file) : error;
  }
  try {
    const status = schemaStatus(db);
    if (!status.initialised) throw new CliExit(ExitCode.NotFound, `${file} holds no jupbot schema (no schema_migrations table)`);
    if (status.pending.length > 0) {
      ctx.stderr(`note: ${file} has schema version ${status.version}; this jupbot knows ${status.latest}. Reading it as it is.\n`);
    }
    // On stderr: the figures on stdout stay as they are for a pipe, and the person reading them is told.
    if (isRehearsalDatabase(db))
      ctx.stderr(`REHEARSAL: ${file} is a rehearsal's: nothing in it was signed or sent; its fills are at the prices Jupiter quoted\n`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function withAuditDb<T>(ctx: CliContext, resolveDb: ResolveDb, command: Command, use: (db: Db) => T): Promise<T> {
  return openForAudit(ctx, resolveDb, command.optsWithGlobals<AuditOptions>()).then((db) => {
    try {
      return use(db);
    } finally {
      db.close();
    }
  });
}

/**
 * Opens the database for writing an operator's action through the audit log (`audit basis set`),
 * after the same checks as a read; never migrates (the actions table is the same in every schema).
 * A running daemon may hold it too: SQLite serialises the writes (the busy timeout waits for the
 * daemon's), and whichever audit log finds the chain head moved by the other re-reads it and appends
 * after it, so the chain stays one line.
 */
export function withWritableAuditDb<T>(ctx: CliContext, resolveDb: ResolveDb, command: Command, use: (db: Db, audit: AuditLog) => T): Promise<T> {
  return openForAudit(ctx, resolveDb, command.optsWithGlobals<AuditOptions>(), true).then((db) => {
    try {
      return use(db, new AuditLog(db, ctx.clock));
    } catch (error) {
      // A read-only file, a full disk, a lock held too long: the operator's to fix, said as such.
      throw storeFailure(error, db.name);
    } finally {
      db.close();
    }
  });
}
