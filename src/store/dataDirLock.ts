/**
 * One daemon per data directory. A second daemon on the same journal and wallet would double every
 * order, and a paper start would move the first one's live database aside. The lock is a file,
 * `<data_dir>/jupbot.lock`, created exclusively (O_EXCL) and holding the owner's pid: a second process
 * is refused with that pid in the message. A lock whose process is gone (killed, crashed) is stale and
 * taken over without a human. Chosen over SQLite's own locks because it must be held before the
 * database is opened or moved, and because it names its holder.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './errors.js';

export const LOCK_FILE = 'jupbot.lock';

/** Locks this process holds, by path: a second daemon in the same process is refused too. */
const held = new Set<string>();

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the data directory's lock (the directory must exist) or throws STORE_LOCKED naming the holder. */
export function lockDataDir(dir: string, pid: number = process.pid): DataDirLock {
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(file);
      const ours = holder === pid && held.has(file);
      if (holder !== null && (ours || (holder !== pid && alive(holder)))) {
        throw new StoreError('STORE_LOCKED', `data_dir ${dir} is in use by another jupbot (pid ${holder}): stop it first, or give this one another data_dir`, {
          details: { dir, pid: holder, lock: file },
        });
      }
      // Stale: its process is gone (or the file is unreadable half-written garbage). Take it over.
      try {
        unlinkSync(file);
      } catch {
        // Another process took it over first: try again.
      }
      continue;
    }
    writeSync(fd, `${pid}\n`);
    closeSync(fd);
    held.add(file);
    return {
      file,
      release() {
        held.delete(file);
        if (holderOf(file) === pid) unlinkSync(file);
      },
    };
  }
  throw new StoreError('STORE_LOCKED', `data_dir ${dir}: could not take ${file} (another process keeps taking it)`, { details: { dir, lock: file } });
}
