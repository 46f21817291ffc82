import Database from 'better-sqlite3';
import { PENDING_STATES } from '../../../src/store/journal.js';

/** Reads `database` without a lock (the daemon may be writing it) and closes it again. */
function readDatabase<T>(database: string, read: (db: Database.Database) => T): T {
  const db = new Database(database, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Intents of `database` not yet final (what reconciliation still has to resolve). */
export function pendingIntents(database: string): number {
  return Object.values(pendingByState(database)).reduce((a, b) => a + b, 0);
}

/** The same intents counted by state, as a stop records them in its `daemon.stopped` row. */
export function pendingByState(database: string): Record<string, number> {
  return readDatabase(database, (db) => {
    const rows = db
      .prepare(`SELECT state, count(*) AS n FROM intents WHERE state IN (${PENDING_STATES.map(() => '?').join(', ')}) GROUP BY state`)
      .all(...PENDING_STATES) as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  });
}

/** What the last `daemon.stopped` row of `database` says its stop left unfinished. */
export function lastStopUnfinished(database: string): unknown {
  return readDatabase(database, (db) => {
    const row = db.prepare("SELECT data FROM actions WHERE kind = 'daemon.stopped' ORDER BY id DESC LIMIT 1").get() as { data: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.data) as { unfinished?: unknown }).unfinished;
  });
}
