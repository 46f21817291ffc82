/**
 * The daemon's wallet from its config. Paper mode always uses the data dir's paper wallet (generated
 * on first use) and never reads a real key, even when `JUPBOT_KEYPAIR` or `wallet.keypair_file` is
 * set: a paper run must not be able to sign with a key that holds money. Live mode takes
 * `JUPBOT_KEYPAIR` when set (it takes precedence, as docs/configuration.md says), else
 * `wallet.keypair_file`. Rehearsal mode takes `wallet.address` and builds a wallet that cannot sign.
 */
import type { Config } from '../config/config.js';
import type { Redactor } from '../ops/redact.js';
import { paperWallet } from './paperWallet.js';
import { fromKeypairFile, fromSecretText, type Wallet } from './wallet.js';
import { WatchOnlyWallet } from './watchOnlyWallet.js';
import { WalletError } from './walletError.js';

export type WalletConfig = Pick<Config, 'mode' | 'data_dir'> & {
  wallet: Pick<Config['wallet'], 'keypair' | 'keypair_file' | 'allow_insecure_permissions'> & Partial<Pick<Config['wallet'], 'address'>>;
};

/** Rehearsal's wallet: `wallet.address` alone. No key file is opened and no secret is read, whatever the config names. */
function watchOnly(config: WalletConfig): WatchOnlyWallet {
  const address = config.wallet.address ?? null;
  if (address === null) throw new WalletError('WALLET_ADDRESS_INVALID', 'rehearsal mode needs wallet.address: the address to rehearse with', {});
  return new WatchOnlyWallet(address);
}

export async function loadWallet(config: WalletConfig, options: { redactor?: Redactor | undefined } = {}): Promise<Wallet | WatchOnlyWallet> {
  if (config.mode === 'rehearsal') return watchOnly(config);
  if (config.mode === 'paper') return await paperWallet(config.data_dir, { redactor: options.redactor });
  const key = await loadConfiguredKey(config, options);
  if (key !== null) return key;
  throw new WalletError('WALLET_FILE_UNREADABLE', 'live mode needs a wallet: set wallet.keypair_file or JUPBOT_KEYPAIR', {});
}

/** The real key the config names (`JUPBOT_KEYPAIR`, else `wallet.keypair_file`) with every check, whatever the mode; null when none. */
export async function loadConfiguredKey(config: WalletConfig, options: { redactor?: Redactor | undefined } = {}): Promise<Wallet | null> {
  const { keypair, keypair_file: file, allow_insecure_permissions: allowInsecurePermissions } = config.wallet;
  if (keypair !== null) return fromSecretText(keypair.reveal(), { redactor: options.redactor, source: 'JUPBOT_KEYPAIR' });
  if (file !== null) return await fromKeypairFile(file, { redactor: options.redactor, allowInsecurePermissions });
  return null;
}

/**
 * Why a configured key is not used: rehearsal mode (which reads no key, and runs with the live config
 * on purpose: said at info) or paper mode (a warning). Null when none is configured or it is used.
 */
export function ignoredKey(config: WalletConfig): string | null {
  if (config.mode === 'rehearsal') {
    if (config.wallet.keypair_file !== null)
      return `wallet.keypair_file (${config.wallet.keypair_file}) is not read: rehearsal mode signs nothing and holds no key`;
    return null;
  }
  if (config.mode !== 'paper') return null;
  if (config.wallet.keypair !== null) return 'JUPBOT_KEYPAIR is set but ignored: paper mode signs only with its own paper wallet';
  if (config.wallet.keypair_file !== null)
    return `wallet.keypair_file (${config.wallet.keypair_file}) is ignored: paper mode signs only with its own paper wallet`;
  return null;
}
