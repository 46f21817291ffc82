/**
 * Rehearsal mode's wallet is an address and nothing else: it has no method that could sign, holds
 * no key, and a malformed address is refused with the config key that named it.
 */
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { loadWallet } from '../../../src/solana/loadWallet.js';
import { WatchOnlyWallet } from '../../../src/solana/watchOnlyWallet.js';

describe('the watch-only wallet', () => {
  it('is the configured address, with no way to sign', async () => {
    const address = Keypair.generate().publicKey.toBase58();
    const wallet = await loadWallet({
      mode: 'rehearsal',
      data_dir: '/nonexistent',
      // A key file and a key that would be refused if anything tried to read them.
      wallet: { address, keypair_file: '/nonexistent/id.json', keypair: null, allow_insecure_permissions: false },
    });
    expect(wallet).toBeInstanceOf(WatchOnlyWallet);
    expect(wallet.address).toBe(address);
    expect(['signTransaction', 'signMessage'].filter((method) => method in wallet)).toEqual([]);
    expect(String(wallet)).toBe(`WatchOnlyWallet(${address})`);
  });

  it('refuses an address that is not 32 bytes of base58, naming wallet.address', () => {
    expect(() => new WatchOnlyWallet('1111111111111111111111111111111')).toThrow(/^wallet\.address 1{31} is not a Solana address/);
  });
});
