import type { Db } from './db.js';

/**
 * Whether the database is a rehearsal's: its ledger was opened (`rehearsal_opening` has rows). Audit
 * commands and the report mark such a database REHEARSAL, since nothing in it was signed or sent.
 * A database older than that table is not one.
 */
export function isRehearsalDatabase(db: Db): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rehearsal_opening'").get();
  if (table === undefined) return false;
  return db.prepare('SELECT 1 FROM rehearsal_opening LIMIT 1').get() !== undefined;
}
