/**
 * A paper database belongs to the simulated world it recorded: a new world (a new data directory's,
 * or after `jupbot paper reset`) under an old database would have reconciliation chase intents and
 * orders the world never saw (orders "open" forever, positions that do not exist). So a new world
 * moves an earlier database aside — kept, for `jupbot audit --db` — and starts a fresh one; `paper
 * reset` moves the world's own file aside the same way. Live mode never does this.
 */
import { existsSync, renameSync } from 'node:fs';

/** Renames `file` (and its -wal / -shm companions) to `<name>.<stamp>.sqlite`; returns the new path. */
export function archiveDatabase(file: string, at: number): string {
  // A file name without ':' (Windows) and sortable: 2026-11-21T12-00-00-000Z.
  const stamp = new Date(at).toISOString().replace(/[:.]/g, '-');
  const archived = file.replace(/\.sqlite$/, '') + `.${stamp}.sqlite`;
  // The companions first: SQLite pairs a WAL with its database by name, so both move together.
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, archived + suffix);
  renameSync(file, archived);
  return archived;
}
