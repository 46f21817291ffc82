import Database from 'better-sqlite3';
import { PENDING_STATES } from '../../../src/store/journal.js';

/** Intents of `database` not yet final (what reconciliation still has to resolve), read without a lock. */
export function pendingIntents(database: string): number {
  const db = new Database(database, { readonly: true, fileMustExist: true });
  try {
    return (
      db.prepare(`SELECT count(*) AS n FROM intents WHERE state IN (${PENDING_STATES.map(() => '?').join(', ')})`).get(...PENDING_STATES) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}
