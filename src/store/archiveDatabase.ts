/**
 * Paper mode's simulated world lives in memory and starts anew with every run, while the database
 * would persist: a restart would then reconcile journaled intents and mirrored orders against a
 * world that never saw them (orders "open" forever, positions that do not exist). So a paper run
 * that finds an earlier run's database moves it aside — kept, for `jupbot audit --db` — and starts
 * a fresh one. Live mode never does this: there the world and the database persist together.
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
