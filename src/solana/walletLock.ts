/**
 * One wallet, one daemon per host. Two daemons on one wallet (each with its own data directory, so
 * the data directory's lock does not meet them) would each run every DCA run and adopt the other's
 * orders as their own. The lock is a file named by the wallet's public key in `lock_dir`, outside any
 * data directory, taken before anything trades, with the data directory lock's rules (lockFile.ts):
 * it names its holder's pid, start time, boot and data directory, and a stale one is taken over.
 *
 * `lock_dir` is a per-host runtime directory (config.ts picks it: systemd's RuntimeDirectory, else
 * $XDG_RUNTIME_DIR/jupbot, else a per-user directory under the temporary directory). A directory that
 * another user owns and others may write is refused: anyone could plant a lock there to stop jupbot.
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import { takeLock, type HeldLock, type LockOptions } from '../store/lockFile.js';
import { WalletError } from './walletError.js';

/** The lock file of `address` in `dir`. */
export function walletLockFile(dir: string, address: string): string {
  return join(dir, `wallet-${address}.lock`);
}

function unusable(dir: string, why: string): WalletError {
  return new WalletError(
    'WALLET_LOCK_UNUSABLE',
    `lock_dir ${dir} cannot hold the wallet's lock: ${why}: set lock_dir to a directory this user can write (docs/configuration.md)`,
    { dir },
  );
}

function prepareDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw unusable(dir, errorMessage(error));
  }
  const stat = statSync(dir);
  if (!stat.isDirectory()) throw unusable(dir, 'it is not a directory');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid && (stat.mode & 0o022) !== 0) {
    throw unusable(dir, `it belongs to uid ${stat.uid} and others may write to it (mode 0${(stat.mode & 0o777).toString(8)})`);
  }
}

/**
 * Takes the wallet's lock in `dir` (created 0700 if missing) for the daemon of `dataDir`, or throws
 * WALLET_IN_USE naming the holder's pid and data directory, or WALLET_LOCK_UNUSABLE.
 */
export function lockWallet(address: string, dir: string, options: LockOptions): HeldLock {
  prepareDir(dir);
  const file = walletLockFile(dir, address);
  try {
    return takeLock(file, options, {
      held: (holder) =>
        new WalletError(
          'WALLET_IN_USE',
          `wallet ${address} is driven by another jupbot (pid ${holder.pid}, data_dir ${holder.dataDir ?? 'not recorded'}): ` +
            `stop it first; one wallet is driven by one daemon per host`,
          { wallet: address, pid: holder.pid, dataDir: holder.dataDir, lock: file },
        ),
      contended: () =>
        new WalletError('WALLET_IN_USE', `wallet ${address}: could not take ${file} (another process keeps taking it)`, { wallet: address, lock: file }),
    });
  } catch (error) {
    if (error instanceof WalletError) throw error;
    throw unusable(dir, errorMessage(error));
  }
}
