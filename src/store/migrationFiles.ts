import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoreError } from './errors.js';

/** One `migrations/NNNN_name.sql` file. */
export interface MigrationFile {
  /** The number in the file name: 1 for `0001_init.sql`. */
  readonly id: number;
  /** The part after the number: `init`. */
  readonly name: string;
  readonly path: string;
  readonly sql: string;
  /** sha256 (hex) of the file's text with CRLF normalised to LF, so a Windows checkout is not a "change". */
  readonly checksum: string;
}

/**
 * The repository's `migrations/` directory. This module lives two levels below the repository
 * root both as `src/store/migrationFiles.ts` and as compiled `dist/store/migrationFiles.js`.
 */
export const defaultMigrationsDir: string = fileURLToPath(new URL('../../migrations/', import.meta.url));

const FILE_NAME = /^(\d{4})_([a-z0-9][a-z0-9_]*)\.sql$/;

/** sha256 of a migration's text as recorded in schema_migrations.checksum. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

/**
 * Reads and checks the migration files of `dir`, sorted by id. Any `.sql` file not named
 * `NNNN_name.sql`, two files with one number, or a gap in the numbers (they must run 1, 2, 3, …)
 * is an error: a silently skipped migration would leave a database that differs from its version.
 * Other files (a README) are ignored; an empty directory is an error (a broken install).
 */
export function readMigrationFiles(dir: string = defaultMigrationsDir): MigrationFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.toLowerCase().endsWith('.sql'));
  } catch (error) {
    throw new StoreError('STORE_MIGRATIONS_INVALID', `cannot read migrations directory ${dir}`, { cause: error, details: { dir } });
  }

  const byId = new Map<number, MigrationFile>();
  for (const fileName of names) {
    const match = FILE_NAME.exec(fileName);
    if (!match) {
      throw new StoreError('STORE_MIGRATIONS_INVALID', `migration file ${join(dir, fileName)} is not named NNNN_name.sql (four digits, lowercase name)`, {
        details: { dir, file: fileName },
      });
    }
    const id = Number(match[1]);
    const path = join(dir, fileName);
    const existing = byId.get(id);
    if (existing) {
      throw new StoreError('STORE_MIGRATIONS_INVALID', `two migrations are numbered ${match[1]}: ${existing.path} and ${path}`, {
        details: { dir, id },
      });
    }
    const sql = readFileSync(path, 'utf8');
    byId.set(id, { id, name: match[2] ?? '', path, sql, checksum: migrationChecksum(sql) });
  }

  const files = [...byId.values()].sort((a, b) => a.id - b.id);
  // No files at all means a broken install (migrations/ not shipped), not an empty schema.
  if (files.length === 0) {
    throw new StoreError('STORE_MIGRATIONS_INVALID', `no migrations found in ${dir}`, { details: { dir } });
  }
  files.forEach((file, index) => {
    if (file.id !== index + 1) {
      throw new StoreError('STORE_MIGRATIONS_INVALID', `migration ${String(index + 1).padStart(4, '0')} is missing in ${dir} (found ${file.path} next)`, {
        details: { dir, missing: index + 1 },
      });
    }
  });
  return files;
}
