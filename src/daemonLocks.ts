/**
 * The daemon's two locks, taken before it opens its database or trades: its data directory's (one
 * daemon per journal: store/dataDirLock.ts) and its wallet's (one daemon per wallet on this host,
 * whatever its data directory: solana/walletLock.ts). The wallet is loaded between the two, since
 * its lock is named by its public key; a paper wallet is locked like a real one, so a paper run
 * meets the refusal a live one would. A rehearsal's watch-only wallet is not locked: it trades
 * nothing, and may watch the wallet a live daemon trades.
 */
import { mkdirSync } from 'node:fs';
import type { Config } from './config/config.js';
import { errorMessage } from './errors.js';
import type { Logger } from './ops/log.js';
import type { Redactor } from './ops/redact.js';
import { loadWallet } from './solana/loadWallet.js';
import type { Wallet } from './solana/wallet.js';
import type { WatchOnlyWallet } from './solana/watchOnlyWallet.js';
import { lockWallet } from './solana/walletLock.js';
import { lockDataDir } from './store/dataDirLock.js';
import type { HeldLock, LockFs, StaleLock } from './store/lockFile.js';
import { storeFailure } from './store/storeFailure.js';

export interface DaemonLocks {
  /** The key that signs, or in rehearsal mode the address alone. */
  readonly wallet: Wallet | WatchOnlyWallet;
  /** Removes both locks. Never throws: a lock that cannot be removed is logged, and the next start takes it over as stale. */
  release(): void;
}

export interface DaemonLockOptions {
  readonly log: Logger;
  readonly redactor: Redactor;
  /** @default node:fs */
  readonly fs?: LockFs | undefined;
  /** False: no wallet lock (a backtest's seed-derived wallet trades only in its own in-process world). @default true */
  readonly exclusiveWallet?: boolean | undefined;
}

function releaseQuietly(lock: HeldLock, log: Logger): void {
  try {
    lock.release();
  } catch (error) {
    log.error({ err: error, lock: lock.file }, `could not remove the lock ${lock.file}: ${errorMessage(error)}; the next start takes it over as stale`);
  }
}

export async function takeDaemonLocks(config: Config, options: DaemonLockOptions): Promise<DaemonLocks> {
  const { log } = options;
  const onStale = ({ file, holder, reason }: StaleLock): void => {
    const whose = holder === null ? 'no process' : `pid ${holder.pid}${holder.dataDir === null ? '' : ` (data_dir ${holder.dataDir})`}`;
    log.warn({ lock: file, holder }, `took over the stale lock ${file} of ${whose}: ${reason}`);
  };
  let dataDir: HeldLock;
  try {
    mkdirSync(config.data_dir, { recursive: true, mode: 0o700 });
    dataDir = lockDataDir(config.data_dir, { fs: options.fs, onStale });
  } catch (error) {
    throw storeFailure(error, config.data_dir);
  }
  let wallet: Wallet | WatchOnlyWallet;
  let walletLock: HeldLock | null = null;
  try {
    wallet = await loadWallet(config, { redactor: options.redactor });
    // A rehearsal trades nothing: it may watch a wallet a live daemon is trading right now.
    if (options.exclusiveWallet !== false && config.mode !== 'rehearsal')
      walletLock = lockWallet(wallet.address, config.lock_dir, { dataDir: config.data_dir, fs: options.fs, onStale });
  } catch (error) {
    releaseQuietly(dataDir, log);
    throw error;
  }
  return {
    wallet,
    release() {
      if (walletLock) releaseQuietly(walletLock, log);
      releaseQuietly(dataDir, log);
    },
  };
}
