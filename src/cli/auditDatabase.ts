/** How every audit command opens the database: read-only, checked, never migrated. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../exitCodes.js';
import { openDatabase, type Db } from '../store/db.js';
import { StoreError } from '../store/errors.js';
import { schemaStatus } from '../store/migrate.js';
import { isRehearsalDatabase } from '../store/rehearsalMark.js';
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
async function openForAudit(ctx: CliContext, resolveDb: ResolveDb, options: AuditOptions): Promise<Db> {
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
    db = openDatabase(file, { readonly: true });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'STORE_OPEN_FAILED') throw new CliExit(ExitCode.NotFound, error.message);
    throw error;
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
