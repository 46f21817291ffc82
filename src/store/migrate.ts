import { storeFailure } from './storeFailure.js';
import type { Clock } from '../clock.js';
import { errorMessage } from '../errors.js';
import { openDatabase, type Db, type OpenDatabaseOptions } from './db.js';
import { SchemaTooNewError, StoreError } from './errors.js';
import { defaultMigrationsDir, readMigrationFiles, type MigrationFile } from './migrationFiles.js';
import { z } from 'zod';
import { parseRows } from './parseRows.js';

export interface MigrateOptions {
  /** Stamps schema_migrations.applied_at. */
  readonly clock: Clock;
  /** Where the NNNN_name.sql files are. @default the repository's migrations/ */
  readonly dir?: string;
}

export interface MigrationResult {
  /** Ids applied by this call, ascending; empty when the database was already current. */
  readonly applied: number[];
  /** The schema version after the call: the highest applied id. */
  readonly version: number;
}

export interface SchemaStatus {
  /** Highest migration id applied to the database; 0 for a database never migrated. */
  readonly version: number;
  /** Highest migration id this code knows. */
  readonly latest: number;
  /** Ids this code would apply, ascending. */
  readonly pending: number[];
  /** False when the database has no schema_migrations table at all. */
  readonly initialised: boolean;
}

interface AppliedRow {
  id: number;
  name: string;
  checksum: string;
}

// Created by the runner rather than by a migration: it must exist before the first one is recorded.
const CREATE_SCHEMA_MIGRATIONS = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    id         INTEGER PRIMARY KEY CHECK (id >= 1),
    name       TEXT    NOT NULL,
    checksum   TEXT    NOT NULL CHECK (length(checksum) = 64),
    applied_at INTEGER NOT NULL CHECK (applied_at >= 0)
  ) STRICT`;

const AppliedRowSchema = z.object({ id: z.number().int().positive(), name: z.string(), checksum: z.string() });

function readApplied(db: Db): AppliedRow[] | undefined {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (table === undefined) return undefined;
  return parseRows(AppliedRowSchema, db.prepare('SELECT id, name, checksum FROM schema_migrations ORDER BY id').all(), 'schema migrations');
}

function assertUnchanged(applied: AppliedRow, file: MigrationFile): void {
  if (applied.checksum !== file.checksum) {
    throw new StoreError(
      'STORE_MIGRATION_CHANGED',
      `migration ${file.path} was changed after it was applied to this database ` +
        `(recorded sha256 ${applied.checksum}, file ${file.checksum}); migrations are forward only: ` +
        'restore the file and put the change in a new migration',
      { details: { id: file.id, recorded: applied.checksum, file: file.checksum } },
    );
  }
}

/** Compares a database with the migration files. Pure reads: throws before a caller writes anything. */
function compare(db: Db, files: readonly MigrationFile[]): SchemaStatus {
  const latest = files.at(-1)?.id ?? 0;
  const applied = readApplied(db);
  if (applied === undefined) return { version: 0, latest, pending: files.map((f) => f.id), initialised: false };

  const version = applied.at(-1)?.id ?? 0;
  if (version > latest) throw new SchemaTooNewError(version, latest, db.name);
  const done = new Set<number>();
  for (const row of applied) {
    const file = files[row.id - 1];
    // Files are 1..latest without gaps (readMigrationFiles checks), and version <= latest here.
    if (file) assertUnchanged(row, file);
    done.add(row.id);
  }
  return { version, latest, pending: files.filter((f) => !done.has(f.id)).map((f) => f.id), initialised: true };
}

/**
 * Where a database stands relative to the code, without writing: for read-only users such as
 * `jupbot audit`. Throws {@link SchemaTooNewError} for a database ahead of the code and
 * STORE_MIGRATION_CHANGED when an applied migration's file was edited.
 */
export function schemaStatus(db: Db, options: { dir?: string } = {}): SchemaStatus {
  return compare(db, readMigrationFiles(options.dir ?? defaultMigrationsDir));
}

/**
 * A migration that rebuilds a table other tables reference carries this line: SQLite's documented
 * procedure for it (a new table, copy, drop, rename) needs foreign key enforcement off, and the
 * pragma has no effect inside a transaction, so the runner sets it around this file's transaction.
 * The foreign_key_check before COMMIT still refuses a file that leaves a dangling reference.
 */
export const FOREIGN_KEYS_OFF_MARK = /^-- jupbot-migration: foreign-keys-off$/m;

function applyOne(db: Db, file: MigrationFile, clock: Clock): boolean {
  if (!FOREIGN_KEYS_OFF_MARK.test(file.sql)) return applyInTransaction(db, file, clock);
  db.pragma('foreign_keys = OFF');
  try {
    return applyInTransaction(db, file, clock);
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

function applyInTransaction(db: Db, file: MigrationFile, clock: Clock): boolean {
  // IMMEDIATE: take the write lock first, so two processes starting together serialise here and
  // the second one sees the first one's row instead of failing half-way through the SQL.
  return db
    .transaction((): boolean => {
      db.exec(CREATE_SCHEMA_MIGRATIONS);
      const already = db.prepare('SELECT id, name, checksum FROM schema_migrations WHERE id = ?').get(file.id) as AppliedRow | undefined;
      if (already) {
        assertUnchanged(already, file);
        return false;
      }
      try {
        // exec() stops at the first failing statement without undoing the earlier ones; the
        // surrounding transaction is what makes the migration all-or-nothing.
        db.exec(file.sql);
      } catch (error) {
        throw new StoreError('STORE_MIGRATION_FAILED', `migration ${file.path} failed: ${errorMessage(error)}`, {
          cause: error,
          details: { id: file.id },
        });
      }
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) {
        throw new StoreError('STORE_MIGRATION_FAILED', `migration ${file.path} left ${broken.length} foreign key violation(s)`, {
          details: { id: file.id, violations: broken.slice(0, 10) },
        });
      }
      db.prepare('INSERT INTO schema_migrations (id, name, checksum, applied_at) VALUES (?, ?, ?, ?)').run(file.id, file.name, file.checksum, clock.now());
      return true;
    })
    .immediate();
}

/**
 * Brings a database up to the newest migration, forward only, each migration in its own
 * transaction. Everything is checked before the first write: a database newer than the code
 * ({@link SchemaTooNewError}), an applied migration whose file changed (STORE_MIGRATION_CHANGED),
 * badly numbered files (STORE_MIGRATIONS_INVALID). Running it on a current database changes nothing.
 *
 * @example
 * const { applied, version } = migrate(db, { clock });
 */
export function migrate(db: Db, options: MigrateOptions): MigrationResult {
  const files = readMigrationFiles(options.dir ?? defaultMigrationsDir);
  const status = compare(db, files);
  const applied: number[] = [];
  for (const id of status.pending) {
    const file = files[id - 1];
    if (file && applyOne(db, file, options.clock)) applied.push(id);
  }
  return { applied, version: status.latest };
}

export interface OpenStoreOptions extends MigrateOptions {
  /** @default 'FULL' (see {@link OpenDatabaseOptions.synchronous}) */
  readonly synchronous?: OpenDatabaseOptions['synchronous'];
}

/** An open, migrated database and what migrating it did. */
export interface Store extends MigrationResult {
  readonly db: Db;
}

/**
 * Opens (creating if needed) and migrates the daemon's database. The connection is closed again
 * if migrating fails, so a refused database is never held open.
 *
 * @example
 * const { db, applied } = openStore(databaseFile(config.dataDir, config.mode), { clock });
 */
export function openStore(file: string, options: OpenStoreOptions): Store {
  let db: Db;
  try {
    db = openDatabase(file, options.synchronous === undefined ? {} : { synchronous: options.synchronous });
  } catch (error) {
    throw storeFailure(error, file);
  }
  try {
    return { db, ...migrate(db, options) };
  } catch (error) {
    db.close();
    throw storeFailure(error, file);
  }
}
