import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { Db } from '../../../src/store/db.js';
import { openStore } from '../../../src/store/migrate.js';

const dirs: string[] = [];
const dbs: Db[] = [];

afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-store-'));
  dirs.push(dir);
  return dir;
}

/** Closes `db` after the test if the test did not. */
export function track(db: Db): Db {
  dbs.push(db);
  return db;
}

/**
 * A migrated file database in a temp dir, with the clock that stamped it. NORMAL durability by
 * default: tests that write thousands of rows need not fsync each one.
 */
export function freshStore(synchronous: 'NORMAL' | 'FULL' = 'NORMAL'): { db: Db; file: string; clock: ManualClock } {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const { db } = openStore(file, { clock, synchronous });
  return { db: track(db), file, clock };
}

export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
