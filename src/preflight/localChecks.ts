/**
 * The checks of `jupbot live check` that ask nothing of the network: the data directory's mode, the
 * key (read with every check `run` applies), and the ops port (bound and let go again).
 */
import { statSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { JupbotError } from '../errors.js';
import { bindOpsPort, listenText } from '../ops/opsPort.js';
import { OPS_LIMITS } from '../ops/opsServer.js';
import type { Redactor } from '../ops/redact.js';
import { loadWallet } from '../solana/loadWallet.js';
import { WalletError } from '../solana/walletError.js';
import { widerThanPrivate } from '../store/permissions.js';
import { failed, passed, type CheckLine } from './checkLine.js';

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

export function dataDirCheck(config: Pick<Config, 'data_dir'>, database: string): CheckLine {
  const wide = widerThanPrivate(config.data_dir, database);
  if (wide.length > 0) return failed('data directory', wide.join('; '), 'the journal and audit log are for the daemon alone');
  return passed('data directory', `${config.data_dir} (mode ${octal(statSync(config.data_dir).mode)})`);
}

/** The wallet's key, loaded as `run` loads it; the address when it could be read. */
export async function keyCheck(config: Config, redactor: Redactor): Promise<{ line: CheckLine; address: string | null }> {
  const file = config.wallet.keypair_file;
  if (config.wallet.keypair === null && file !== null && /\$\{\w+\}/.test(file))
    return {
      line: failed(
        'key',
        `wallet.keypair_file ${file} names a variable this environment does not set`,
        'run live check as the service runs, with its credentials (docs/going-live.md)',
      ),
      address: null,
    };
  try {
    const wallet = await loadWallet(config, { redactor });
    const from =
      config.wallet.keypair !== null
        ? 'JUPBOT_KEYPAIR (the environment)'
        : `${config.wallet.keypair_file ?? ''} (mode ${octal(statSync(config.wallet.keypair_file ?? '').mode)})`;
    return { line: passed('key', `wallet ${wallet.address} from ${from}`), address: wallet.address };
  } catch (error) {
    if (!(error instanceof WalletError)) throw error;
    const fix =
      error.code === 'WALLET_FILE_INSECURE'
        ? 'chmod 600 the key file (docs/security.md)'
        : 'name a readable Solana CLI key file in wallet.keypair_file (docs/going-live.md, "The key")';
    return { line: failed('key', `${error.code}: ${error.message}`, fix), address: null };
  }
}

/** The ops address, bound and let go: what `run` binds first. */
export async function opsPortCheck(config: Pick<Config, 'http'>): Promise<CheckLine> {
  try {
    const port = await bindOpsPort(config.http.listen, OPS_LIMITS);
    await port.close();
    return passed('ops port', `${listenText(config.http.listen)} is free`);
  } catch (error) {
    if (!(error instanceof JupbotError)) throw error;
    return failed('ops port', `${error.code}: ${error.message}`, 'run live check again once it is free');
  }
}
