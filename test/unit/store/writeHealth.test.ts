import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { openDatabase, type Db } from '../../../src/store/db.js';
import { watchWrites, type WriteFault } from '../../../src/store/writeHealth.js';

const dirs: string[] = [];
const open: Db[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function watched(): { db: Db; file: string; clock: ManualClock; changes: [string | null, string | null][]; fault: () => WriteFault | null } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-writes-'));
  dirs.push(dir);
  const file = join(dir, 'w.sqlite');
  const db = openDatabase(file);
  open.push(db);
  db.exec('CREATE TABLE t (x TEXT NOT NULL UNIQUE)');
  const clock = new ManualClock(Date.UTC(2026, 0, 2));
  const changes: [string | null, string | null][] = [];
  const health = watchWrites(db, { file, clock, onChange: (now, before) => changes.push([now?.error.code ?? null, before?.error.code ?? null]) });
  return { db, file, clock, changes, fault: () => health.fault() };
}

/** SQLite's own limit: no page may be added past the current size, as on a full disk. */
function fill(db: Db): void {
  db.pragma('max_page_count = 1');
}

describe("the store's writes say whether it can be written", () => {
  it('a full database: the fault names the file and the disk, counts the writes, and ends with the next commit', async () => {
    const w = watched();
    fill(w.db);
    const insert = w.db.prepare('INSERT INTO t VALUES (?)');
    expect(() => insert.run('x'.repeat(100_000))).toThrow('database or disk is full');
    await w.clock.advance(5_000);
    // Inside a transaction, the statement's failure and the transaction's are one failed write.
    const tx = w.db.transaction((text: string) => insert.run(text));
    expect(() => tx.immediate('y'.repeat(100_000))).toThrow('database or disk is full');
    expect(w.fault()).toMatchObject({ since: Date.UTC(2026, 0, 2), failures: 2, error: { code: 'STORE_FULL' } });
    expect(w.fault()?.error.message).toBe(`${w.file} cannot be written: its disk is full (SQLITE_FULL): free space on it, or raise the quota`);

    w.db.pragma('max_page_count = 1073741823');
    tx.immediate('z'.repeat(100_000));
    expect(w.fault()).toBe(null);
    expect(w.changes).toEqual([
      ['STORE_FULL', null],
      [null, 'STORE_FULL'],
    ]);
  });

  it('a read-only database is STORE_READ_ONLY; a constraint, a read or a transaction that only read changes nothing', () => {
    const w = watched();
    const insert = w.db.prepare('INSERT INTO t VALUES (?)');
    insert.run('a');
    expect(() => insert.run('a')).toThrow('UNIQUE constraint failed');
    expect(w.fault()).toBe(null);
    w.db.pragma('query_only = ON');
    expect(() => w.db.exec("INSERT INTO t VALUES ('b')")).toThrow('attempt to write a readonly database');
    expect(w.fault()?.error.code).toBe('STORE_READ_ONLY');
    expect(w.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    w.db.transaction(() => w.db.prepare('SELECT x FROM t').all())();
    expect(w.fault()?.failures).toBe(1);
    w.db.pragma('query_only = OFF');
    w.db.exec("INSERT INTO t VALUES ('b')");
    expect(w.fault()).toBe(null);
  });
});
