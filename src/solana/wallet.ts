/**
 * The hot wallet. The 64-byte secret key lives in a private field of a {@link Wallet} and nowhere
 * else: the object exposes the public key, `signMessage` and `signTransaction`, and every way
 * JavaScript turns it into text (String, JSON, util.inspect, pino) shows only the public key.
 *
 * Wallets are built only through the factories below, which check what they load: a key file must
 * not be readable by group or others (a world-readable key file is the classic way bots lose funds),
 * and its 64 bytes must be a consistent keypair. Error messages name the file and the fix, never the
 * content. When a {@link Redactor} is passed, the secret's base58 and JSON-array forms are registered
 * with it, so a copy that escapes by some other path is still scrubbed from logs and the database.
 *
 * Signing does not check what is signed: compose with the guard (see guardedSigner.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { inspect } from 'node:util';
import { Keypair, type PublicKey, type VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { isSecretKeyText } from '../config/secretKeyText.js';
import type { Redactor } from '../ops/redact.js';
import { WalletError } from './walletError.js';

export { WalletError } from './walletError.js';

export interface WalletOptions {
  /** Registers the secret's text forms so that any copy is scrubbed from logs and rows. */
  redactor?: Redactor | undefined;
}

export interface KeypairFileOptions extends WalletOptions {
  /** Accept a file readable by group or others (config `wallet.allow_insecure_permissions`). */
  allowInsecurePermissions?: boolean | undefined;
}

/** The config key that overrides the permission check, named in the refusal. */
export const INSECURE_PERMISSIONS_OVERRIDE = 'wallet.allow_insecure_permissions: true';

export class Wallet {
  readonly #keypair: Keypair;
  readonly publicKey: PublicKey;
  /** Where the key came from, for messages: a path, `JUPBOT_KEYPAIR`, or `paper`. */
  readonly source: string;

  // Private: only the factories below may build a wallet, after checking what they loaded.
  private constructor(keypair: Keypair, source: string, options: WalletOptions) {
    this.#keypair = keypair;
    this.publicKey = keypair.publicKey;
    this.source = source;
    if (options.redactor) {
      options.redactor.add(bs58.encode(keypair.secretKey));
      options.redactor.add(JSON.stringify(Array.from(keypair.secretKey)));
    }
  }

  /** @internal Used by the factories in this module only. */
  static fromBytes(bytes: Uint8Array, source: string, options: WalletOptions = {}): Wallet {
    let keypair: Keypair;
    try {
      // Validates that the last 32 bytes are the public key of the first 32. web3.js keeps the array
      // it is given, so it gets its own copy and the caller's buffer is wiped below.
      keypair = Keypair.fromSecretKey(Uint8Array.from(bytes));
    } catch {
      throw new WalletError('WALLET_KEY_INVALID', `${source}: the 64 bytes are not a valid Solana keypair (the public half does not match the secret half)`, {
        source,
      });
    } finally {
      bytes.fill(0);
    }
    return new Wallet(keypair, source, options);
  }

  /** The wallet address, base58. */
  get address(): string {
    return this.publicKey.toBase58();
  }

  /** A detached ed25519 signature of `message` (64 bytes). */
  signMessage(message: Uint8Array): Uint8Array {
    return nacl.sign.detached(message, this.#keypair.secretKey);
  }

  /**
   * Adds this wallet's signature to `tx` in place (partial signing: other signatures are kept) and
   * returns it. Throws when the wallet is not one of the transaction's required signers.
   */
  signTransaction(tx: VersionedTransaction): VersionedTransaction {
    const signers = tx.message.staticAccountKeys.slice(0, tx.message.header.numRequiredSignatures);
    if (!signers.some((key) => key.equals(this.publicKey))) {
      throw new WalletError('WALLET_NOT_A_SIGNER', `the transaction does not list ${this.address} as a required signer`, { wallet: this.address });
    }
    tx.sign([this.#keypair]);
    return tx;
  }

  toString(): string {
    return `Wallet(${this.address})`;
  }

  toJSON(): { publicKey: string } {
    return { publicKey: this.address };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** Loads a Solana CLI key file (a JSON array of 64 numbers), refusing one that group or others can read. */
export async function fromKeypairFile(file: string, options: KeypairFileOptions = {}): Promise<Wallet> {
  let mode: number;
  try {
    mode = (await stat(file)).mode;
  } catch (error) {
    throw new WalletError('WALLET_FILE_UNREADABLE', `${file}: cannot read the key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file });
  }
  if ((mode & 0o077) !== 0 && options.allowInsecurePermissions !== true) {
    const octal = (mode & 0o777).toString(8).padStart(3, '0');
    throw new WalletError(
      'WALLET_FILE_INSECURE',
      `${file}: the key file has mode ${octal}, readable by group or others; run \`chmod 600 ${file}\`` +
        ` (or, in a container whose mount cannot be chmod-ed, set \`${INSECURE_PERMISSIONS_OVERRIDE}\` in the config)`,
      { file, mode: octal },
    );
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new WalletError('WALLET_FILE_UNREADABLE', `${file}: cannot read the key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file });
  }
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') || !isSecretKeyText(trimmed)) {
    throw new WalletError('WALLET_KEY_INVALID', `${file}: expected a Solana CLI key file, a JSON array of 64 numbers from 0 to 255`, { file });
  }
  return Wallet.fromBytes(Uint8Array.from(JSON.parse(trimmed) as number[]), file, options);
}

/** Parses `JUPBOT_KEYPAIR`-style text: base58 (wallet exports) or a JSON array of 64 numbers. */
export function fromSecretText(text: string, options: WalletOptions & { source?: string } = {}): Wallet {
  const source = options.source ?? 'JUPBOT_KEYPAIR';
  const trimmed = text.trim();
  if (!isSecretKeyText(trimmed)) {
    throw new WalletError('WALLET_KEY_INVALID', `${source}: expected a 64-byte Solana secret key, base58 or a JSON array of 64 numbers`, { source });
  }
  const bytes = trimmed.startsWith('[') ? Uint8Array.from(JSON.parse(trimmed) as number[]) : bs58.decode(trimmed);
  return Wallet.fromBytes(bytes, source, options);
}
