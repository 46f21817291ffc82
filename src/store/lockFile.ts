/**
 * An exclusive lock file that names its holder: created with O_EXCL, it holds the owner's pid on
 * its first line (what jupbot wrote before, and all an older jupbot reads) and, on the second, a
 * JSON object with the process's start time, the boot id and its data directory
 * (processIdentity.ts says why a pid alone is not enough). A second taker is refused with the
 * holder named; a stale lock is taken over, and the caller is told which lock, whose, and why it
 * was stale. A lock file holding only a pid (written by an older jupbot) is still read: stale only
 * when that pid is gone.
 *
 * Errors of the file system (read-only, full, permissions) are thrown as they are, never taken for
 * contention: a lock that cannot be removed because the disk is read-only says so, instead of
 * "another process keeps taking it".
 */
import * as nodeFs from 'node:fs';
import { z } from 'zod';
import { systemIdentity, type ProcessIdentity } from './processIdentity.js';

/** The calls a lock makes on the file system; tests give one that fails as a read-only disk does. */
export interface LockFs {
  openSync(path: string, flags: string, mode?: number): number;
  writeSync(fd: number, text: string): number;
  closeSync(fd: number): void;
  readFileSync(path: string, encoding: 'utf8'): string;
  unlinkSync(path: string): void;
}

export interface LockHolder {
  readonly pid: number;
  /** Null in a lock written by an older jupbot, or where the system does not say. */
  readonly startTime: string | null;
  readonly bootId: string | null;
  /** The holder's data directory; null in a lock written by an older jupbot. */
  readonly dataDir: string | null;
}

/** A stale lock that was taken over: which, whose (null: the file named no process), and why. */
export interface StaleLock {
  readonly file: string;
  readonly holder: LockHolder | null;
  readonly reason: string;
}

export interface LockOptions {
  /** This process's data directory, written into the lock for whoever is refused by it. */
  readonly dataDir: string;
  /** Told when a stale lock is taken over. */
  readonly onStale?: ((stale: StaleLock) => void) | undefined;
  /** @default node:fs */
  readonly fs?: LockFs | undefined;
  /** @default the running system's */
  readonly identity?: ProcessIdentity | undefined;
  /** @default process.pid */
  readonly pid?: number | undefined;
}

export interface HeldLock {
  readonly file: string;
  /** Removes the lock if this process still holds it. Throws what the file system says (a read-only disk: EROFS). */
  release(): void;
}

/** The errors a taker raises: the lock is held (by `holder`), or it changed hands on every attempt. */
export interface LockRefusals {
  held(holder: LockHolder): Error;
  contended(): Error;
}

/** Locks this process holds, by path: a second daemon in the same process is refused too. */
const held = new Set<string>();

const Details = z.object({
  startTime: z.string().nullable().catch(null),
  bootId: z.string().nullable().catch(null),
  dataDir: z.string().nullable().catch(null),
});

export function formatLock(holder: LockHolder): string {
  const { pid, startTime, bootId, dataDir } = holder;
  return `${pid}\n${JSON.stringify({ startTime, bootId, dataDir })}\n`;
}

/** The holder a lock file names; null when it names no process (empty, damaged). */
export function parseLock(text: string): LockHolder | null {
  const [first = '', second = ''] = text.split('\n');
  if (!/^\d+$/.test(first.trim())) return null;
  const pid = Number.parseInt(first, 10);
  if (!(pid > 0)) return null;
  let details: z.infer<typeof Details> = { startTime: null, bootId: null, dataDir: null };
  if (second.trim() !== '') {
    try {
      details = Details.parse(JSON.parse(second));
    } catch {
      // The pid line is what decides; details that do not parse are only less precise.
    }
  }
  return { pid, ...details };
}

function readHolder(fs: LockFs, file: string): LockHolder | null | 'gone' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  return parseLock(text);
}

/** Why the lock at `file` is stale, or null while its holder runs. */
function whyStale(file: string, holder: LockHolder | null, me: { pid: number; bootId: string | null }, identity: ProcessIdentity): string | null {
  if (holder === null) return 'it names no process (empty or damaged)';
  const { pid } = holder;
  if (pid === me.pid) return held.has(file) ? null : `its pid ${pid} is this process, which does not hold it`;
  if (holder.bootId !== null && me.bootId !== null && holder.bootId !== me.bootId) {
    return `it was taken during another boot (boot id ${holder.bootId}; this boot is ${me.bootId})`;
  }
  if (!identity.alive(pid)) return `pid ${pid} is not running`;
  const started = holder.startTime === null ? null : identity.startTime(pid);
  if (started !== null && started !== holder.startTime) {
    return `pid ${pid} is now another process (started at ${started}, the holder at ${holder.startTime}, in clock ticks after boot): the pid was reused`;
  }
  return null;
}

function removeIfPresent(fs: LockFs, file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Takes the lock at `file` (its directory must exist), or throws one of `refusals`, or the file system's error. */
export function takeLock(file: string, options: LockOptions, refusals: LockRefusals): HeldLock {
  const fs = options.fs ?? nodeFs;
  const identity = options.identity ?? systemIdentity;
  const pid = options.pid ?? process.pid;
  const me: LockHolder = { pid, startTime: identity.startTime(pid), bootId: identity.bootId(), dataDir: options.dataDir };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(fs, file);
      if (holder === 'gone') continue;
      const reason = whyStale(file, holder, me, identity);
      if (reason === null && holder !== null) throw refusals.held(holder);
      removeIfPresent(fs, file);
      options.onStale?.({ file, holder, reason: reason ?? 'stale' });
      continue;
    }
    try {
      fs.writeSync(fd, formatLock(me));
    } catch (error) {
      // A lock that says nothing would be taken for stale by the next start: leave none (a full disk: ENOSPC).
      fs.closeSync(fd);
      removeIfPresent(fs, file);
      throw error;
    }
    fs.closeSync(fd);
    held.add(file);
    return {
      file,
      release() {
        held.delete(file);
        const holder = readHolder(fs, file);
        if (holder !== 'gone' && holder?.pid === pid) removeIfPresent(fs, file);
      },
    };
  }
  throw refusals.contended();
}
