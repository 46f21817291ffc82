/**
 * Rehearsal mode's wallet: an address and nothing else. It has no secret key and no way to sign,
 * so a rehearsing daemon cannot sign a transaction or a login message whatever its code does: the
 * type has no such method, and no key was read to build it.
 */
import { PublicKey } from '@solana/web3.js';
import { WalletError } from './walletError.js';

export class WatchOnlyWallet {
  readonly address: string;
  readonly publicKey: PublicKey;
  /** Where the address came from, for messages. */
  readonly source = 'wallet.address';
  readonly watchOnly = true;

  constructor(address: string) {
    let key: PublicKey;
    try {
      key = new PublicKey(address);
    } catch {
      throw new WalletError('WALLET_ADDRESS_INVALID', `wallet.address ${address} is not a Solana address (base58 of 32 bytes)`, {});
    }
    this.publicKey = key;
    this.address = key.toBase58();
  }

  toString(): string {
    return `WatchOnlyWallet(${this.address})`;
  }
}
