import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/db.js';
import { StoreError } from '../../../src/store/errors.js';
import { databaseFile } from '../../../src/store/paths.js';
import { tempDir, track } from './helpers.js';

describe('openDatabase', () => {
  it('opens a file database in WAL with foreign keys, a busy timeout and synchronous=FULL, creating its directory', () => {
    const file = join(tempDir(), 'a', 'b', 'x.sqlite');
    const db = track(openDatabase(file));
    expect(existsSync(file)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });

  it('takes synchronous=NORMAL when asked', () => {
    const db = track(openDatabase(join(tempDir(), 'x.sqlite'), { synchronous: 'NORMAL' }));
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('opens :memory: for tests', () => {
    const db = track(openDatabase(':memory:'));
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
  });

  it('opens read-only: the file must exist, and writes fail', () => {
    const file = join(tempDir(), 'x.sqlite');
    expect(() => openDatabase(file, { readonly: true })).toThrow(StoreError);
    expect(existsSync(file)).toBe(false);

    const writer = openDatabase(file);
    writer.exec('CREATE TABLE t (x INTEGER) STRICT; INSERT INTO t VALUES (1);');
    writer.close();

    const reader = track(openDatabase(file, { readonly: true }));
    expect(reader.prepare('SELECT x FROM t').all()).toEqual([{ x: 1 }]);
    expect(() => reader.exec('INSERT INTO t VALUES (2)')).toThrow(/readonly/);
  });
});

describe('databaseFile', () => {
  it('keeps paper and live apart', () => {
    expect(databaseFile('/var/lib/jupbot', 'paper')).toBe(join('/var/lib/jupbot', 'jupbot-paper.sqlite'));
    expect(databaseFile('/var/lib/jupbot', 'live')).toBe(join('/var/lib/jupbot', 'jupbot-live.sqlite'));
  });

  it('refuses any other mode at run time', () => {
    expect(() => databaseFile('/d', 'Live' as 'live')).toThrow(/'paper', 'live' or 'rehearsal'/);
  });
});
