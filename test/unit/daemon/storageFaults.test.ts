import * as fs from 'node:fs';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start, type Daemon } from '../../../src/daemon.js';
import { NO_RESTART_EXIT_CODES } from '../../../src/exitCodes.js';
import { createLogger } from '../../../src/ops/log.js';
import { PAPER_WALLET_FILE } from '../../../src/solana/paperWallet.js';
import { walletLockFile } from '../../../src/solana/walletLock.js';
import { LOCK_FILE } from '../../../src/store/dataDirLock.js';
import type { LockFs } from '../../../src/store/lockFile.js';
import { databaseFile } from '../../../src/store/paths.js';
import { systemIdentity } from '../../../src/store/processIdentity.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

/**
 * `jupbot run` starts the daemon through this seam: a test may hand it the file system its locks
 * are taken on (a disk that turns read-only or full), and gets each started daemon back to reach
 * its database connection. Everything else is the real daemon.
 */
const seam = vi.hoisted(() => ({ lockFs: undefined as LockFs | undefined, started: [] as Daemon[] }));
vi.mock(import('../../../src/daemon.js'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    start: async (...[config, deps]: Parameters<typeof original.start>) => {
      const daemon = await original.start(config, { ...deps, ...(seam.lockFs ? { lockFs: seam.lockFs } : {}) });
      seam.started.push(daemon);
      return daemon;
    },
  };
});

const NOW = Date.UTC(2026, 10, 24);
const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  seam.lockFs = undefined;
  seam.started.length = 0;
  for (const d of daemons.splice(0)) await d.stop('test over');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Workspace {
  dir: string;
  data: string;
  locks: string;
  configFile: string;
  config: ReturnType<typeof parseConfigText>;
  out: MemoryStream;
  log: ReturnType<typeof createLogger>;
}

function workspace(label: string, locks?: string, extra = ''): Workspace {
  const dir = mkdtempSync(join(tmpdir(), `jupbot-${label}-`));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  const data = join(dir, 'data');
  const lockDir = locks ?? join(dir, 'locks');
  const text = `data_dir: ${data}\nlock_dir: ${lockDir}\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: ${label} }\nlog: { format: json }\n${extra}`;
  const configFile = join(dir, 'c.yaml');
  writeFileSync(configFile, text);
  const out = new MemoryStream();
  return { dir, data, locks: lockDir, configFile, config: parseConfigText(text, configFile, {}, dir), out, log: createLogger({ destination: out }) };
}

/** A disk that can be made read-only, as a remount does under a running daemon: nothing can be created or removed. */
function disk(): { fs: LockFs; readOnly: boolean } {
  const state = {
    readOnly: false,
    fs: {
      openSync: (path: string, flags: string, mode?: number): number => {
        if (state.readOnly && flags === 'wx' && !fs.existsSync(path)) erofs('open', path);
        return fs.openSync(path, flags, mode);
      },
      writeSync: (fd: number, text: string): number => fs.writeSync(fd, text),
      closeSync: (fd: number): void => fs.closeSync(fd),
      readFileSync: (path: string, encoding: 'utf8'): string => fs.readFileSync(path, encoding),
      unlinkSync: (path: string): void => (state.readOnly ? erofs('unlink', path) : fs.unlinkSync(path)),
    },
  };
  return state;
}

function erofs(call: string, path: string): never {
  throw Object.assign(new Error(`EROFS: read-only file system, ${call} '${path}'`), { code: 'EROFS', syscall: call, path });
}

interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

async function readyz(daemon: Daemon): Promise<{ status: number; database: Check | undefined }> {
  const res = await fetch(`${daemon.opsUrl}/readyz`);
  const body = (await res.json()) as { checks: Check[] };
  return { status: res.status, database: body.checks.find((c) => c.name === 'database') };
}

/** Resolves once every feed (and the balances) has polled successfully: the daemon is then ready. */
async function feedsPolled(daemon: Daemon): Promise<void> {
  // A feed nothing needs (no strategy here) is paused: it never polls.
  const feeds = daemon.engine.feeds.all.filter((feed) => feed.state().paused === null);
  await Promise.all(
    feeds.map((feed) =>
      feed.state().at !== null
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const off = feed.events.on('updated', () => {
              off();
              resolve();
            });
          }),
    ),
  );
}

/** Runs `jupbot run` until the daemon has started; returns the run and the daemon. */
async function runUntilStarted(w: Workspace, shutdown: AbortSignal): Promise<{ run: ReturnType<typeof jupbot>; daemon: Daemon }> {
  let started!: () => void;
  const up = new Promise<void>((resolve) => (started = resolve));
  const run = jupbot(['run', '--config', w.configFile], {
    clock: new ManualClock(NOW),
    shutdown,
    // run subscribes once the daemon has started.
    onFatal: () => {
      started();
      return () => undefined;
    },
  });
  await up;
  return { run, daemon: seam.started.at(-1) as Daemon };
}

/** A live process that is not this one (the test runner's parent), as /proc describes it. */
const other = process.ppid;
const otherStart = systemIdentity.startTime(other) as string;
const boot = systemIdentity.bootId() as string;

describe('a database that cannot be written fails /readyz', () => {
  it('a full disk: 503 naming the database and why, logged once; ready again once a write succeeds', async () => {
    const w = workspace('full', undefined, 'api: { requests_per_second: 1000 }\n');
    const daemon = await start(w.config, { clock: new ManualClock(NOW), log: w.log });
    daemons.push(daemon);
    // The quota is high enough that every first poll goes out at once, without the clock moving.
    await feedsPolled(daemon);
    const file = databaseFile(w.data, 'paper');
    const ready = await readyz(daemon);
    expect(ready).toEqual({ status: 200, database: { name: 'database', ok: true } });

    // SQLite's own limit: no page may be added past the current size, as on a full disk.
    daemon.store.db.pragma('max_page_count = 1');
    const journal = daemon.engine.trading.journal;
    // Journaled as a decision would be: the intent and its audit row need new pages.
    expect(() => journal.plan({ id: 'big/run/1', kind: 'swap', strategy: 'big', params: { pad: 'x'.repeat(1_000_000) } })).toThrow('database or disk is full');
    const full = await readyz(daemon);
    expect(full.status).toBe(503);
    expect(full.database).toEqual({
      name: 'database',
      ok: false,
      detail: `database ${file} cannot be written: its disk is full (SQLITE_FULL): free space on it, or raise the quota; 1 write(s) failed since 2026-11-24T00:00:00.000Z; ready again once a write succeeds`,
    });
    expect(() => journal.plan({ id: 'big/run/2', kind: 'swap', strategy: 'big', params: { pad: 'y'.repeat(1_000_000) } })).toThrow('database or disk is full');
    expect(
      w.out
        .lines()
        .filter((l) => String(l['msg']).startsWith('database writes fail'))
        .map((l) => l['msg']),
    ).toEqual([
      `database writes fail: ${file} cannot be written: its disk is full (SQLITE_FULL): free space on it, or raise the quota; /readyz fails until a write succeeds`,
    ]);

    daemon.store.db.pragma('max_page_count = 1073741823');
    journal.plan({ id: 'small/run/1', kind: 'swap', strategy: 'small', params: { amount: '1' } });
    expect(await readyz(daemon)).toEqual(ready);
    expect(w.out.lines().some((l) => l['msg'] === `database ${file} can be written again (2 write(s) had failed)`)).toBe(true);
  });
});

describe('full and read-only disks end the command with documented codes', () => {
  it('a stop on a disk gone read-only ends (74, saying why); the next start exits 74 saying the data directory is read-only', async () => {
    const w = workspace('readonly');
    const d = disk();
    seam.lockFs = d.fs;
    const shutdown = new AbortController();
    const { run, daemon } = await runUntilStarted(w, shutdown.signal);
    const file = databaseFile(w.data, 'paper');
    // The database refuses writes as SQLite does on a read-only file; the locks cannot be removed.
    daemon.store.db.pragma('query_only = ON');
    d.readOnly = true;
    shutdown.abort(new Error('received SIGTERM'));
    const stopped = await run;
    expect(stopped.code).toBe(74);
    expect(stopped.stderr).toBe(
      `jupbot: stopped, but the stop could not be recorded: ${file} is read-only (SQLITE_READONLY): make data_dir and its files writable by the daemon's user, or mount it read-write\n`,
    );
    const lines = stopped.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => String((JSON.parse(l) as { msg: unknown }).msg));
    expect(lines.filter((l) => l.startsWith('could not remove'))).toEqual([
      `could not remove the lock ${w.locks}/wallet-${daemon.engine.wallet}.lock: EROFS: read-only file system, unlink '${w.locks}/wallet-${daemon.engine.wallet}.lock'; the next start takes it over as stale`,
      `could not remove the lock ${w.data}/${LOCK_FILE}: EROFS: read-only file system, unlink '${w.data}/${LOCK_FILE}'; the next start takes it over as stale`,
    ]);
    expect(lines.at(-1)).toMatch(/^jupbot stopped: received SIGTERM; .* \(not recorded in the audit log: .* is read-only \(SQLITE_READONLY\): .*\)$/);

    const again = await jupbot(['run', '--config', w.configFile], { clock: new ManualClock(NOW) });
    expect([again.code, again.stderr]).toEqual([74, `jupbot: ${w.data} is on a read-only file system (EROFS): mount it read-write\n`]);
  });

  it('a start on a full disk exits 76, which the service manager restarts (space may come back)', async () => {
    const w = workspace('nospace');
    seam.lockFs = {
      ...fs,
      writeSync: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    };
    const result = await jupbot(['run', '--config', w.configFile], { clock: new ManualClock(NOW) });
    expect([result.code, result.stderr]).toEqual([
      76,
      `jupbot: ${w.data} cannot be written: its disk is full (ENOSPC): free space on it, or raise the quota\n`,
    ]);
    expect(NO_RESTART_EXIT_CODES).not.toContain(76);
  });
});

describe('stale locks', () => {
  it('a data directory lock naming a live process that started at another time (a reused pid) is taken over, and the log says which, whose and why', async () => {
    const w = workspace('reused');
    mkdirSync(w.data, { recursive: true });
    const file = join(w.data, LOCK_FILE);
    writeFileSync(file, `${other}\n${JSON.stringify({ startTime: '1', bootId: boot, dataDir: '/srv/gone' })}\n`);
    const daemon = await start(w.config, { clock: new ManualClock(NOW), log: w.log });
    daemons.push(daemon);
    expect(
      w.out
        .lines()
        .filter((l) => l['level'] === 'warn' && String(l['msg']).startsWith('took over'))
        .map((l) => l['msg']),
    ).toEqual([
      `took over the stale lock ${file} of pid ${other} (data_dir /srv/gone): pid ${other} is now another process (started at ${otherStart}, the holder at 1, in clock ticks after boot): the pid was reused`,
    ]);
  });
});

describe('one wallet, one daemon per host', () => {
  it('a second daemon on the same wallet with another data directory refuses to start (73), naming the first; once it stops, the wallet is free', async () => {
    const a = workspace('wallet-a');
    const first = await start(a.config, { clock: new ManualClock(NOW), log: a.log });
    const b = workspace('wallet-b', a.locks);
    mkdirSync(b.data, { mode: 0o700 });
    copyFileSync(join(a.data, PAPER_WALLET_FILE), join(b.data, PAPER_WALLET_FILE));
    // Asked to stop at once: were it to start, it would stop again and exit 0.
    const stopAtOnce = new AbortController();
    stopAtOnce.abort(new Error('received SIGTERM'));
    const second = await jupbot(['run', '--config', b.configFile], { clock: new ManualClock(NOW), shutdown: stopAtOnce.signal });
    expect([second.code, second.stderr]).toEqual([
      73,
      `jupbot: wallet ${first.engine.wallet} is driven by another jupbot (pid ${process.pid}, data_dir ${a.data}): stop it first; one wallet is driven by one daemon per host\n`,
    ]);
    // Refused before it opened a database.
    expect(existsSync(databaseFile(b.data, 'paper'))).toBe(false);

    await first.stop('handing over');
    const third = await start(b.config, { clock: new ManualClock(NOW), log: b.log });
    daemons.push(third);
    expect(third.engine.wallet).toBe(first.engine.wallet);
  });

  it("another process's wallet lock refuses with its pid and data directory; one from another boot is taken over", async () => {
    const w = workspace('wallet-held');
    const first = await start(w.config, { clock: new ManualClock(NOW), log: w.log });
    const wallet = first.engine.wallet;
    await first.stop('the lock is handed to another process');
    const file = walletLockFile(w.locks, wallet);
    writeFileSync(file, `${other}\n${JSON.stringify({ startTime: otherStart, bootId: boot, dataDir: '/srv/other' })}\n`);
    await expect(start(w.config, { clock: new ManualClock(NOW), log: w.log })).rejects.toMatchObject({
      code: 'WALLET_IN_USE',
      message: `wallet ${wallet} is driven by another jupbot (pid ${other}, data_dir /srv/other): stop it first; one wallet is driven by one daemon per host`,
    });

    writeFileSync(file, `${other}\n${JSON.stringify({ startTime: otherStart, bootId: 'before-the-reboot', dataDir: '/srv/other' })}\n`);
    const daemon = await start(w.config, { clock: new ManualClock(NOW), log: w.log });
    daemons.push(daemon);
    expect(
      w.out
        .lines()
        .filter((l) => String(l['msg']).startsWith('took over'))
        .map((l) => l['msg']),
    ).toEqual([
      `took over the stale lock ${file} of pid ${other} (data_dir /srv/other): it was taken during another boot (boot id before-the-reboot; this boot is ${boot})`,
    ]);
  });
});
