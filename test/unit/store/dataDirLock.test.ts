import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../src/errorCatalogue.js';
import { StoreError } from '../../../src/store/errors.js';
import { LOCK_FILE, lockDataDir } from '../../../src/store/dataDirLock.js';
import { parseLock, type LockFs, type StaleLock } from '../../../src/store/lockFile.js';
import { startTimeOfStat, systemIdentity } from '../../../src/store/processIdentity.js';
import { storeFailure } from '../../../src/store/storeFailure.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-lock-'));
  dirs.push(dir);
  return dir;
}

/** A live process that is not this one (the test runner's parent), as /proc describes it. */
const other = process.ppid;
const otherStart = systemIdentity.startTime(other) as string;
const boot = systemIdentity.bootId() as string;

function writeLock(dir: string, text: string): string {
  const file = join(dir, LOCK_FILE);
  writeFileSync(file, text);
  return file;
}

/** A file system on which nothing can be created or removed, as on a disk remounted read-only. */
function readOnlyFs(): LockFs {
  const erofs = (call: string, path: string): never => {
    throw Object.assign(new Error(`EROFS: read-only file system, ${call} '${path}'`), { code: 'EROFS', syscall: call, path });
  };
  return {
    openSync: (path, flags, mode) => (flags === 'wx' && fs.existsSync(path) ? fs.openSync(path, flags, mode) : erofs('open', path)),
    writeSync: (fd, text) => fs.writeSync(fd, text),
    closeSync: (fd) => fs.closeSync(fd),
    readFileSync: (path, encoding) => fs.readFileSync(path, encoding),
    unlinkSync: (path) => erofs('unlink', path),
  };
}

describe('the data directory lock names its holder', () => {
  it('writes the pid on the first line, then the start time, the boot id and the data directory', () => {
    const dir = dataDir();
    const lock = lockDataDir(dir);
    const text = readFileSync(lock.file, 'utf8');
    expect(text.split('\n')[0]).toBe(String(process.pid));
    expect(parseLock(text)).toEqual({ pid: process.pid, startTime: systemIdentity.startTime(process.pid), bootId: boot, dataDir: dir });
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
  });

  it('reads the start time past a command name with spaces and parentheses', () => {
    expect(startTimeOfStat('4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615')).toBe('987654');
    expect(startTimeOfStat('garbage')).toBe(null);
  });
});

describe('a stale lock is taken over, and the taker is told which, whose and why', () => {
  it('a live pid that now belongs to a process started at another time (the pid was reused)', () => {
    const dir = dataDir();
    const file = writeLock(dir, `${other}\n${JSON.stringify({ startTime: '1', bootId: boot, dataDir: '/srv/old' })}\n`);
    const told: StaleLock[] = [];
    const lock = lockDataDir(dir, { onStale: (stale) => told.push(stale) });
    expect(told).toEqual([
      {
        file,
        holder: { pid: other, startTime: '1', bootId: boot, dataDir: '/srv/old' },
        reason: `pid ${other} is now another process (started at ${otherStart}, the holder at 1, in clock ticks after boot): the pid was reused`,
      },
    ]);
    expect(parseLock(readFileSync(file, 'utf8'))?.pid).toBe(process.pid);
    lock.release();
  });

  it('a lock taken during another boot, even though its pid runs now', () => {
    const dir = dataDir();
    const file = writeLock(dir, `${other}\n${JSON.stringify({ startTime: otherStart, bootId: 'a-boot-before-the-last-reboot', dataDir: dir })}\n`);
    const told: StaleLock[] = [];
    lockDataDir(dir, { onStale: (stale) => told.push(stale) }).release();
    expect(told.map((t) => [t.file, t.reason])).toEqual([
      [file, `it was taken during another boot (boot id a-boot-before-the-last-reboot; this boot is ${boot})`],
    ]);
  });

  it('an old lock holding only a pid, whose process is gone; while it runs, that lock still refuses', async () => {
    const dir = dataDir();
    const gone = spawn(process.execPath, ['-e', '0']);
    const pid = gone.pid as number;
    await new Promise((resolve) => gone.on('exit', resolve));
    writeLock(dir, `${pid}\n`);
    const told: StaleLock[] = [];
    lockDataDir(dir, { onStale: (stale) => told.push(stale) }).release();
    expect(told.map((t) => [t.holder, t.reason])).toEqual([[{ pid, startTime: null, bootId: null, dataDir: null }, `pid ${pid} is not running`]]);

    writeLock(dir, `${other}\n`);
    expect(() => lockDataDir(dir)).toThrow(`data_dir ${dir} is in use by another jupbot (pid ${other}): stop it first, or give this one another data_dir`);
  });

  it('a lock whose holder runs, started when the lock says, in this boot, is not stale', () => {
    const dir = dataDir();
    writeLock(dir, `${other}\n${JSON.stringify({ startTime: otherStart, bootId: boot, dataDir: '/srv/a' })}\n`);
    expect(() => lockDataDir(dir)).toThrow(
      expect.objectContaining({ code: 'STORE_LOCKED', details: { dir, pid: other, lock: join(dir, LOCK_FILE) } }) as Error,
    );
  });
});

describe('a read-only disk is named as one, never taken for contention', () => {
  it('a stale lock that cannot be removed: STORE_READ_ONLY, exit 74, saying the file system is read-only', () => {
    const dir = dataDir();
    const file = writeLock(dir, `${other}\n${JSON.stringify({ startTime: '1', bootId: boot, dataDir: dir })}\n`);
    let thrown: unknown;
    try {
      lockDataDir(dir, { fs: readOnlyFs() });
    } catch (error) {
      thrown = storeFailure(error, dir);
    }
    expect(thrown).toBeInstanceOf(StoreError);
    expect((thrown as StoreError).code).toBe('STORE_READ_ONLY');
    expect((thrown as StoreError).message).toBe(`${dir} is on a read-only file system (EROFS): mount it read-write`);
    expect(exitCodeOf((thrown as StoreError).code)).toBe(74);
    expect(readFileSync(file, 'utf8')).toContain(`${other}\n`);
  });

  it('no lock yet, and none can be created: the same', () => {
    const dir = dataDir();
    expect(() => lockDataDir(dir, { fs: readOnlyFs() })).toThrow(expect.objectContaining({ code: 'EROFS' }) as Error);
  });

  it('a lock that cannot be written (a full disk) is not left behind empty', () => {
    const dir = dataDir();
    const full: LockFs = {
      ...fs,
      writeSync: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    };
    let thrown: unknown;
    try {
      lockDataDir(dir, { fs: full });
    } catch (error) {
      thrown = storeFailure(error, dir);
    }
    expect([(thrown as StoreError).code, (thrown as StoreError).message]).toEqual([
      'STORE_FULL',
      `${dir} cannot be written: its disk is full (ENOSPC): free space on it, or raise the quota`,
    ]);
    expect(exitCodeOf('STORE_FULL')).toBe(76);
    expect(fs.existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
