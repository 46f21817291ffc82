/**
 * A counter this connection bumps on every write to `intents` or `trigger_orders`, kept by temporary
 * triggers (nothing in the file changes): a reader can reuse what it derived from those tables until
 * the counter moves. Every writer is counted by construction, whichever statement it runs. Writes by
 * another connection are not seen; the daemon is the only writer of its database (the data
 * directory's lock).
 */
import type { Db } from './db.js';
import { z } from 'zod';
import { parseRow } from './parseRows.js';
import { statement } from './statementCache.js';

const VersionRow = z.object({ v: z.number().int() });

const TABLES = ['intents', 'trigger_orders'];
const installed = new WeakSet<Db>();

function install(db: Db): void {
  const triggers = TABLES.flatMap((table) =>
    ['INSERT', 'UPDATE', 'DELETE'].map(
      (event) =>
        `CREATE TEMP TRIGGER IF NOT EXISTS jupbot_version_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} BEGIN UPDATE jupbot_journal_version SET v = v + 1; END;`,
    ),
  );
  db.exec(
    `CREATE TEMP TABLE IF NOT EXISTS jupbot_journal_version (v INTEGER NOT NULL);
     INSERT INTO jupbot_journal_version SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM jupbot_journal_version);
     ${triggers.join('\n')}`,
  );
  installed.add(db);
}

/** The connection's write counter over `intents` and `trigger_orders` (installed on first use). */
export function journalVersion(db: Db): number {
  if (!installed.has(db)) install(db);
  return parseRow(VersionRow, statement(db, 'SELECT v FROM jupbot_journal_version').get(), 'journal version').v;
}

const reads = new WeakMap<Db, { version: number; values: Map<string, unknown> }>();

/**
 * `read()`'s value under `key`, computed again only after this connection wrote to `intents` or
 * `trigger_orders`. For reads that depend on those two tables alone (no clock, no other table), and
 * whose value the caller treats as read-only.
 */
export function readSinceJournalChange<T>(db: Db, key: string, read: () => T): T {
  const version = journalVersion(db);
  let entry = reads.get(db);
  if (entry === undefined || entry.version !== version) reads.set(db, (entry = { version, values: new Map() }));
  if (entry.values.has(key)) return entry.values.get(key) as T;
  const value = read();
  entry.values.set(key, value);
  return value;
}
