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

/** Options of `jupbot audit` itself, shared by its subcommands: `--db` may be repeated (see {@link collectDb}). */
export interface AuditOptions {
  db?: string | readonly string[];
  config?: string;
}

/** Commander's parser of a repeatable `--db`: every file given, in order. */
export function collectDb(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The `--db` files given, in order (none: the config names the database). */
export function dbFiles(options: AuditOptions): string[] {
  return options.db === undefined ? [] : typeof options.db === 'string' ? [options.db] : [...options.db];
}

/** `jupbot audit verify`: the command's name under the program's. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The options with the one `--db` a single-database command reads. Several are refused by name:
 * reading only the last one (commander's way with a repeated option) would answer for another wallet.
 */
function oneDb(command: Command): { db?: string; config?: string } {
  const options = command.optsWithGlobals<AuditOptions>();
  const files = dbFiles(options);
  if (files.length > 1)
    throw new CliExit(
      ExitCode.Usage,
      `${commandPath(command)} reads one database, but --db was given ${files.length} times (audit pnl, audit trades and report take several)`,
    );
  return { ...(files[0] === undefined ? {} : { db: files[0] }), ...(options.config === undefined ? {} : { config: options.config }) };
}

/** Finds the database file from `--db` or the config (its data_dir and mode). */
export type ResolveDb = (options: { db?: string; config?: string }) => Promise<string>;

/**
 * Opens the database read-only after checking it is there and not newer than this code. Never
 * migrates: an auditor's copy must not change by being looked at.
 */
async function openForAudit(ctx: CliContext, resolveDb: ResolveDb, options: { db?: string; config?: string }, writable = false): Promise<Db> {
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

export async function withAuditDb<T>(ctx: CliContext, resolveDb: ResolveDb, command: Command, use: (db: Db) => T): Promise<T> {
  const db = await openForAudit(ctx, resolveDb, oneDb(command));
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/**
 * Every database `--db` names, each opened and checked as {@link withAuditDb} opens one, in the
 * order given; all closed when `use` returns or throws.
 */
export async function withAuditDbs<T>(ctx: CliContext, resolveDb: ResolveDb, command: Command, use: (dbs: readonly Db[]) => T): Promise<T> {
  const options = command.optsWithGlobals<AuditOptions>();
  const dbs: Db[] = [];
  try {
    for (const db of dbFiles(options))
      dbs.push(await openForAudit(ctx, resolveDb, { db, ...(options.config === undefined ? {} : { config: options.config }) }));
    return use(dbs);
  } finally {
    for (const db of dbs) db.close();
  }
}

/**
 * Opens the database for writing an operator's action through the audit log (`audit basis set`),
 * after the same checks as a read; never migrates (the actions table is the same in every schema).
 * A running daemon may hold it too: SQLite serialises the writes (the busy timeout waits for the
 * daemon's), and whichever audit log finds the chain head moved by the other re-reads it and appends
 * after it, so the chain stays one line.
 */
export function withWritableAuditDb<T>(ctx: CliContext, resolveDb: ResolveDb, command: Command, use: (db: Db, audit: AuditLog) => T): Promise<T> {
  return openForAudit(ctx, resolveDb, oneDb(command), true).then((db) => {
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
