/**
 * The daemon's wallet from its config: `JUPBOT_KEYPAIR` when set (it takes precedence, as
 * docs/configuration.md says), else `wallet.keypair_file`, else — in paper mode only — the data
 * dir's paper wallet, generated on first use.
 */
import type { Config } from '../config/config.js';
import type { Redactor } from '../ops/redact.js';
import { paperWallet } from './paperWallet.js';
import { fromKeypairFile, fromSecretText, type Wallet } from './wallet.js';
import { WalletError } from './walletError.js';

export type WalletConfig = Pick<Config, 'mode' | 'data_dir'> & { wallet: Pick<Config['wallet'], 'keypair' | 'keypair_file' | 'allow_insecure_permissions'> };

export async function loadWallet(config: WalletConfig, options: { redactor?: Redactor | undefined } = {}): Promise<Wallet> {
  const { keypair, keypair_file: file, allow_insecure_permissions: allowInsecurePermissions } = config.wallet;
  if (keypair !== null) return fromSecretText(keypair.reveal(), { redactor: options.redactor, source: 'JUPBOT_KEYPAIR' });
  if (file !== null) return await fromKeypairFile(file, { redactor: options.redactor, allowInsecurePermissions });
  if (config.mode === 'paper') return await paperWallet(config.data_dir, { redactor: options.redactor });
  throw new WalletError('WALLET_FILE_UNREADABLE', 'live mode needs a wallet: set wallet.keypair_file or JUPBOT_KEYPAIR', {});
}
