/**
 * Paper wallets: a fresh keypair written into the data dir, so paper mode needs no key of the
 * user's. The file is created with mode 0600 (exclusive create, so an existing key is never
 * overwritten) and then loaded through the same checks as any key file.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { fromKeypairFile, type WalletOptions, type Wallet } from './wallet.js';
import { WalletError } from './walletError.js';

/** The paper wallet's file name inside the data dir. */
export const PAPER_WALLET_FILE = 'paper-wallet.json';

/** Creates a new key file at `file` (mode 0600; refuses to overwrite) and loads it. */
export async function generateKeypairFile(file: string, options: WalletOptions = {}): Promise<Wallet> {
  // tweetnacl draws the seed from the OS CSPRNG (crypto.randomBytes), never from the seeded Random.
  const keypair = Keypair.generate();
  const text = JSON.stringify(Array.from(keypair.secretKey));
  keypair.secretKey.fill(0);
  try {
    await writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new WalletError('WALLET_FILE_EXISTS', `${file}: a key file already exists; refusing to overwrite it`, { file });
    }
    throw new WalletError('WALLET_FILE_UNREADABLE', `${file}: cannot write the key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file });
  }
  // The umask can only remove bits from 0600, but a pre-set ACL or odd filesystem may not honour it.
  await chmod(file, 0o600);
  return await fromKeypairFile(file, options);
}

/** The data dir's paper wallet: loaded when it exists, generated (mode 0600) otherwise. */
export async function paperWallet(dataDir: string, options: WalletOptions = {}): Promise<Wallet> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, PAPER_WALLET_FILE);
  try {
    return await generateKeypairFile(file, options);
  } catch (error) {
    if (error instanceof WalletError && error.code === 'WALLET_FILE_EXISTS') return await fromKeypairFile(file, options);
    throw error;
  }
}
