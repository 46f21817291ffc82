/**
 * One daemon per data directory. A second daemon on the same journal and wallet would double every
 * order, and a paper start would move the first one's live database aside. The lock is a file,
 * `<data_dir>/jupbot.lock` (lockFile.ts: created exclusively, naming its holder's pid, start time
 * and boot): a second process is refused with that pid in the message. A lock whose process is gone
 * (killed, crashed, or from before a reboot, its pid since reused) is stale and taken over without a
 * human. Chosen over SQLite's own locks because it must be held before the database is opened or
 * moved, and because it names its holder.
 */
import { join } from 'node:path';
import { StoreError } from './errors.js';
import { takeLock, type HeldLock, type LockOptions } from './lockFile.js';

export const LOCK_FILE = 'jupbot.lock';

export type DataDirLock = HeldLock;

/**
 * Takes the data directory's lock (the directory must exist) or throws STORE_LOCKED naming the
 * holder. File system errors (EROFS, ENOSPC, EACCES) are thrown as they are: storeFailure() names them.
 */
export function lockDataDir(dir: string, options: Omit<LockOptions, 'dataDir'> = {}): DataDirLock {
  const file = join(dir, LOCK_FILE);
  return takeLock(
    file,
    { ...options, dataDir: dir },
    {
      held: (holder) =>
        new StoreError('STORE_LOCKED', `data_dir ${dir} is in use by another jupbot (pid ${holder.pid}): stop it first, or give this one another data_dir`, {
          details: { dir, pid: holder.pid, lock: file },
        }),
      contended: () =>
        new StoreError('STORE_LOCKED', `data_dir ${dir}: could not take ${file} (another process keeps taking it)`, { details: { dir, lock: file } }),
    },
  );
}
