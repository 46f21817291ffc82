import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { openDatabase, type Db } from '../../../src/store/db.js';
import { SchemaTooNewError, StoreError } from '../../../src/store/errors.js';
import { migrate, openStore, schemaStatus } from '../../../src/store/migrate.js';
import { defaultMigrationsDir, migrationChecksum, readMigrationFiles } from '../../../src/store/migrationFiles.js';
import { freshStore, sha256File, tempDir, track } from './helpers.js';

/** Every migration in the repository: 0001_init, 0002_strategy_state, 0003_drop_position_snapshots, 0004_price_samples, 0005_order_gone, 0006_venue_idls, 0007_pending_fills, 0008_rehearsal_ledger, 0009_row_seals, 0010_audit_views, 0011_renew_kind, 0012_control_state, 0013_protections. */
const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const LATEST = 13;

const EXPECTED_TABLES = [
  'actions',
  'control_halt',
  'control_paused',
  'fills',
  'intents',
  'pending_fills',
  'price_samples',
  'protection_peaks',
  'protection_trips',
  'rehearsal_costs',
  'rehearsal_opening',
  'rekinded_rows',
  'schema_migrations',
  'strategy_state',
  'strategy_versions',
  'token_pins',
  'trigger_orders',
  'unsealed_rows',
  'venue_idls',
];

function tables(db: Db): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);
}

function schemaText(db: Db): string {
  return (db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all() as object[]).map((r) => JSON.stringify(r)).join('\n');
}

function totalChanges(db: Db): number {
  return (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
}

function expectStoreError(fn: () => unknown, code: string, message?: RegExp): StoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe(code);
    if (message) expect((error as Error).message).toMatch(message);
    return error as StoreError;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}

/** A migrations directory with the given files. */
function migrationsDir(files: Record<string, string>): string {
  const dir = join(tempDir(), 'migrations');
  mkdirSync(dir);
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

describe('migrate with the repository migrations', () => {
  it('gives a fresh database every table, recorded in schema_migrations with checksum and clock time', () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 1));
    const file = join(tempDir(), 'nested', 'dir', 'jupbot-live.sqlite');
    const { db, applied, version } = openStore(file, { clock });
    track(db);

    expect(applied).toEqual(ALL);
    expect(version).toBe(LATEST);
    expect(tables(db)).toEqual(EXPECTED_TABLES);
    const rows = db.prepare('SELECT id, name, checksum, applied_at FROM schema_migrations').all();
    const checksum = (name: string): string =>
      createHash('sha256')
        .update(readFileSync(join(defaultMigrationsDir, name), 'utf8'))
        .digest('hex');
    expect(rows).toEqual([
      { id: 1, name: 'init', checksum: checksum('0001_init.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 2, name: 'strategy_state', checksum: checksum('0002_strategy_state.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 3, name: 'drop_position_snapshots', checksum: checksum('0003_drop_position_snapshots.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 4, name: 'price_samples', checksum: checksum('0004_price_samples.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 5, name: 'order_gone', checksum: checksum('0005_order_gone.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 6, name: 'venue_idls', checksum: checksum('0006_venue_idls.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 7, name: 'pending_fills', checksum: checksum('0007_pending_fills.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 8, name: 'rehearsal_ledger', checksum: checksum('0008_rehearsal_ledger.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 9, name: 'row_seals', checksum: checksum('0009_row_seals.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 10, name: 'audit_views', checksum: checksum('0010_audit_views.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 11, name: 'renew_kind', checksum: checksum('0011_renew_kind.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 12, name: 'control_state', checksum: checksum('0012_control_state.sql'), applied_at: Date.UTC(2026, 4, 1) },
      { id: 13, name: 'protections', checksum: checksum('0013_protections.sql'), applied_at: Date.UTC(2026, 4, 1) },
    ]);
  });

  it('rebuilds trigger_orders for the gone state (0005), keeping every order, the fills that name them and enforcement on', () => {
    const repo = (name: string): string => readFileSync(join(defaultMigrationsDir, name), 'utf8');
    const older = migrationsDir(
      Object.fromEntries(['0001_init.sql', '0002_strategy_state.sql', '0003_drop_position_snapshots.sql', '0004_price_samples.sql'].map((n) => [n, repo(n)])),
    );
    const clock = new ManualClock(Date.UTC(2026, 4, 1));
    const db = track(openDatabase(join(tempDir(), 'before-gone.db')));
    migrate(db, { clock, dir: older });
    const order = (id: string, state: string): void => {
      db.prepare(
        `INSERT INTO trigger_orders (id, family, order_type, state, input_mint, input_decimals, output_mint, output_decimals,
           input_amount, raw, created_at, updated_at, first_seen_at, last_synced_at)
         VALUES (?, 'price', 'single', ?, 'in', 9, 'out', 6, '1000', '{}', 1, 1, 1, 1)`,
      ).run(id, state);
    };
    order('o-open', 'open');
    order('o-filled', 'filled');
    db.prepare(
      `INSERT INTO fills (signature, idx, source, trigger_order_id, in_mint, in_amount, in_decimals, out_mint, out_amount, out_decimals, at, recorded_at)
       VALUES ('sig', 0, 'trigger', 'o-filled', 'in', '1000', 9, 'out', '7', 6, 1, 1)`,
    ).run();
    expect(() => order('o-gone', 'gone')).toThrow(/CHECK constraint failed/);

    expect(migrate(db, { clock })).toEqual({ applied: [5, 6, 7, 8, 9, 10, 11, 12, 13], version: LATEST });
    order('o-gone', 'gone');
    expect(db.prepare('SELECT id, state FROM trigger_orders ORDER BY id').all()).toEqual([
      { id: 'o-filled', state: 'filled' },
      { id: 'o-gone', state: 'gone' },
      { id: 'o-open', state: 'open' },
    ]);
    expect(db.prepare('SELECT trigger_order_id FROM fills').all()).toEqual([{ trigger_order_id: 'o-filled' }]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      db
        .prepare(
          `INSERT INTO fills (signature, idx, source, trigger_order_id, in_mint, in_amount, in_decimals, out_mint, out_amount, out_decimals, at, recorded_at)
           VALUES ('sig2', 0, 'trigger', 'no-such-order', 'in', '1', 9, 'out', '1', 6, 1, 1)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY constraint failed/);
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'trigger_orders' AND sql IS NOT NULL ORDER BY name").all();
    expect(indexes).toEqual([{ name: 'trigger_orders_intent' }, { name: 'trigger_orders_live' }, { name: 'trigger_orders_strategy' }]);
  });

  it('drops position_snapshots from a database made before 0003, keeping everything else', () => {
    const repo = (name: string): string => readFileSync(join(defaultMigrationsDir, name), 'utf8');
    const older = migrationsDir({ '0001_init.sql': repo('0001_init.sql'), '0002_strategy_state.sql': repo('0002_strategy_state.sql') });
    const clock = new ManualClock(Date.UTC(2026, 4, 1));
    const db = track(openDatabase(join(tempDir(), 'old.db')));
    migrate(db, { clock, dir: older });
    expect(tables(db)).toContain('position_snapshots');
    db.prepare("INSERT INTO actions (id, at, kind, data, prev_hash, hash) VALUES (1, 1, 'a', '{}', ?, ?)").run('0'.repeat(64), 'f'.repeat(64));

    expect(migrate(db, { clock })).toEqual({ applied: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], version: LATEST });
    expect(tables(db)).toEqual(EXPECTED_TABLES);
    expect(db.prepare('SELECT count(*) AS n FROM actions').get()).toEqual({ n: 1 });
  });

  it('is a no-op when run again: nothing applied, nothing written', async () => {
    const { db, clock } = freshStore();
    const before = schemaText(db);
    const stamped = db.prepare('SELECT applied_at FROM schema_migrations').all();
    const changes = totalChanges(db);
    await clock.advance(60_000);

    expect(migrate(db, { clock })).toEqual({ applied: [], version: LATEST });
    expect(totalChanges(db)).toBe(changes);
    expect(schemaText(db)).toBe(before);
    expect(db.prepare('SELECT applied_at FROM schema_migrations').all()).toEqual(stamped);
  });

  it('reopens an existing database with its data and applies nothing', () => {
    const { db, file, clock } = freshStore();
    db.prepare("INSERT INTO token_pins VALUES ('dca-sol', 'USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 6, 1)").run();
    db.close();

    const reopened = track(openStore(file, { clock }).db);
    expect(migrate(reopened, { clock }).applied).toEqual([]);
    expect(tables(reopened)).toEqual(EXPECTED_TABLES);
    expect(reopened.prepare('SELECT symbol, decimals FROM token_pins').all()).toEqual([{ symbol: 'USDC', decimals: 6 }]);
  });

  it('refuses a database newer than the code with SchemaTooNewError, before writing anything', () => {
    const { db, file, clock } = freshStore();
    db.prepare("INSERT INTO schema_migrations VALUES (9999, 'from_the_future', ?, 5)").run('a'.repeat(64));
    db.close();
    const fileHash = sha256File(file);

    let thrown: unknown;
    try {
      openStore(file, { clock });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SchemaTooNewError);
    const error = thrown as SchemaTooNewError;
    expect(error.code).toBe('STORE_SCHEMA_TOO_NEW');
    expect(error.databaseVersion).toBe(9999);
    expect(error.codeVersion).toBe(LATEST);
    expect(error.message).toMatch(/9999/);
    expect(error.message).toContain(`(${LATEST})`);
    expect(sha256File(file)).toBe(fileHash);

    // Also on an open connection: no statement changed anything.
    const again = track(openDatabase(file));
    const changes = totalChanges(again);
    expect(() => migrate(again, { clock })).toThrow(SchemaTooNewError);
    expect(() => schemaStatus(again)).toThrow(SchemaTooNewError);
    expect(totalChanges(again)).toBe(changes);
    expect(again.prepare('SELECT id FROM schema_migrations ORDER BY id').all()).toEqual([...ALL.map((id) => ({ id })), { id: 9999 }]);
  });

  it('reports where a database stands without writing', () => {
    const db = track(openDatabase(':memory:'));
    expect(schemaStatus(db)).toEqual({ version: 0, latest: LATEST, pending: ALL, initialised: false });
    expect(tables(db)).toEqual([]);
    migrate(db, { clock: new ManualClock() });
    expect(schemaStatus(db)).toEqual({ version: LATEST, latest: LATEST, pending: [], initialised: true });
  });

  it('works on an in-memory database', () => {
    const db = track(openDatabase(':memory:'));
    expect(migrate(db, { clock: new ManualClock() })).toEqual({ applied: ALL, version: LATEST });
    expect(tables(db)).toEqual(EXPECTED_TABLES);
  });

  it('resolves the default directory to the repository migrations/', () => {
    expect(defaultMigrationsDir.replace(/\\/g, '/')).toMatch(/\/migrations\/$/);
    expect(readMigrationFiles().map((f) => f.id)).toEqual(ALL);
  });
});

describe('migrate with a migrations directory of its own', () => {
  const clock = new ManualClock();

  it('applies pending migrations in order, each recorded', () => {
    const dir = migrationsDir({ '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;', '0002_b.sql': 'CREATE TABLE b (y TEXT) STRICT;' });
    const db = track(openDatabase(':memory:'));
    expect(migrate(db, { clock, dir })).toEqual({ applied: [1, 2], version: 2 });
    expect(db.prepare('SELECT id, name FROM schema_migrations ORDER BY id').all()).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
  });

  it('applies only the new file when one is added later', () => {
    const dir = migrationsDir({ '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;' });
    const db = track(openDatabase(':memory:'));
    migrate(db, { clock, dir });
    writeFileSync(join(dir, '0002_b.sql'), 'CREATE TABLE b (y TEXT) STRICT;');
    expect(migrate(db, { clock, dir })).toEqual({ applied: [2], version: 2 });
  });

  it('refuses an applied migration whose file changed, and applies nothing else', () => {
    const dir = migrationsDir({ '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;' });
    const db = track(openDatabase(':memory:'));
    migrate(db, { clock, dir });
    writeFileSync(join(dir, '0001_a.sql'), 'CREATE TABLE a (x INTEGER, y INTEGER) STRICT;');
    writeFileSync(join(dir, '0002_b.sql'), 'CREATE TABLE b (y TEXT) STRICT;');

    const error = expectStoreError(() => migrate(db, { clock, dir }), 'STORE_MIGRATION_CHANGED', /0001_a\.sql was changed/);
    expect(error.details).toMatchObject({ id: 1 });
    expect(tables(db)).toEqual(['a', 'schema_migrations']);
  });

  it('does not treat a CRLF checkout as a change', () => {
    expect(migrationChecksum('CREATE TABLE a (x);\r\nCREATE TABLE b (y);\r\n')).toBe(migrationChecksum('CREATE TABLE a (x);\nCREATE TABLE b (y);\n'));
  });

  it('refuses a gap in the numbers', () => {
    const dir = migrationsDir({ '0001_a.sql': 'SELECT 1;', '0003_c.sql': 'SELECT 1;' });
    const db = track(openDatabase(':memory:'));
    expectStoreError(() => migrate(db, { clock, dir }), 'STORE_MIGRATIONS_INVALID', /migration 0002 is missing/);
    expect(tables(db)).toEqual([]);
  });

  it('refuses two files with one number', () => {
    const dir = migrationsDir({ '0001_a.sql': 'SELECT 1;', '0001_b.sql': 'SELECT 1;' });
    expectStoreError(() => readMigrationFiles(dir), 'STORE_MIGRATIONS_INVALID', /two migrations are numbered 0001/);
  });

  it('refuses a badly named .sql file instead of skipping it, and ignores other files', () => {
    expectStoreError(
      () => readMigrationFiles(migrationsDir({ '0001_a.sql': 'SELECT 1;', '002_b.sql': 'SELECT 1;' })),
      'STORE_MIGRATIONS_INVALID',
      /002_b\.sql is not named/,
    );
    expect(readMigrationFiles(migrationsDir({ '0001_a.sql': 'SELECT 1;', 'README.md': '# notes' })).map((f) => f.name)).toEqual(['a']);
  });

  it('refuses an empty or missing directory (a broken install)', () => {
    expectStoreError(() => readMigrationFiles(migrationsDir({})), 'STORE_MIGRATIONS_INVALID', /no migrations found/);
    expectStoreError(() => readMigrationFiles(join(tempDir(), 'absent')), 'STORE_MIGRATIONS_INVALID', /cannot read/);
  });

  it('rolls a failing migration back completely and records nothing for it', () => {
    const dir = migrationsDir({
      '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;',
      '0002_b.sql': 'CREATE TABLE b (y TEXT) STRICT;\nINSERT INTO a VALUES (1);\nINSERT INTO missing_table VALUES (1);',
    });
    const db = track(openDatabase(':memory:'));
    expectStoreError(() => migrate(db, { clock, dir }), 'STORE_MIGRATION_FAILED', /0002_b\.sql failed: no such table: missing_table/);
    expect(tables(db)).toEqual(['a', 'schema_migrations']);
    expect(db.prepare('SELECT count(*) AS n FROM a').get()).toEqual({ n: 0 });
    expect(schemaStatus(db, { dir })).toMatchObject({ version: 1, pending: [2] });

    // A pending migration may still be fixed; then it applies.
    writeFileSync(join(dir, '0002_b.sql'), 'CREATE TABLE b (y TEXT) STRICT;');
    expect(migrate(db, { clock, dir })).toEqual({ applied: [2], version: 2 });
  });

  it('rolls back a migration that leaves a foreign key violation', () => {
    const dir = migrationsDir({
      '0001_a.sql':
        'CREATE TABLE p (id INTEGER PRIMARY KEY) STRICT;\nCREATE TABLE c (p INTEGER REFERENCES p (id)) STRICT;\n' +
        // foreign_keys is ON, but a deferred check would only fire at COMMIT: the runner checks first.
        'PRAGMA defer_foreign_keys = ON;\nINSERT INTO c VALUES (42);',
    });
    const db = track(openDatabase(':memory:'));
    expectStoreError(() => migrate(db, { clock, dir }), 'STORE_MIGRATION_FAILED', /foreign key violation/);
    expect(tables(db)).toEqual([]);
  });

  it('skips a migration another process applied meanwhile', () => {
    const dir = migrationsDir({ '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;' });
    const file = join(tempDir(), 'shared.sqlite');
    const first = track(openDatabase(file));
    const second = track(openDatabase(file));
    expect(migrate(first, { clock, dir }).applied).toEqual([1]);
    expect(migrate(second, { clock, dir }).applied).toEqual([]);
  });
});
