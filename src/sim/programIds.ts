import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';

/**
 * A PublicKey whose base58 form is computed once. web3.js re-encodes keys many times while compiling
 * a message; on the quote path that was most of the simulator's CPU time. Keys are immutable, so
 * memoising the encoding on the instance is safe.
 */
function memoized(key: PublicKey, base58?: string): PublicKey {
  const text = base58 ?? key.toBase58();
  key.toBase58 = () => text;
  key.toString = () => text;
  return key;
}

const keyCache = new Map<string, PublicKey>();

/** The (cached, memoised) PublicKey for a base58 address. */
export function pubkey(address: string): PublicKey {
  let key = keyCache.get(address);
  if (!key) {
    key = memoized(new PublicKey(address), address);
    if (keyCache.size >= 10_000) keyCache.clear();
    keyCache.set(address, key);
  }
  return key;
}

/**
 * Every program and well-known address the simulator puts into a transaction. The transaction
 * guard allow-lists exactly these, so each one is listed with its source in docs/simulator.md.
 */
export const ProgramId = {
  system: pubkey('11111111111111111111111111111111'),
  computeBudget: pubkey('ComputeBudget111111111111111111111111111111'),
  token: pubkey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'),
  token2022: pubkey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'),
  associatedToken: pubkey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'),
  memo: pubkey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'),
  /** Jupiter Aggregator v6: the program /order transactions call. */
  jupiterAggregatorV6: pubkey('JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4'),
  /**
   * Jupiter's prediction-market program, as independent public sources name it (Jupiter publishes
   * no IDL or id): the simulator's prediction orders and claims call it, laid out as observed.
   */
  jupiterPrediction: pubkey('3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp'),
} as const;

/** Jupiter's gas wallet: the fee payer of gasless swaps. */
export const JUPITER_GAS_WALLET = 'gasTzr94Pmp4Gf8vknQnqxeYxdgwFjbgdJa4msYRpnB';

export const SOL_MINT = 'So11111111111111111111111111111111111111112';
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A fixed, valid public key from a label: for simulator-only accounts (pools, fake mints). */
export function derivedAddress(label: string): PublicKey {
  return memoized(new PublicKey(createHash('sha256').update(label).digest()));
}

/** PDA derivation tries curve points (slow in pure JS); the same few accounts recur on every quote. */
const ataCache = new Map<string, PublicKey>();
const ATA_CACHE_LIMIT = 10_000;
/** Token accounts the simulator has derived, back to their owner and mint (the RPC serves them as accounts). */
const ataOwners = new Map<string, { owner: string; mint: string; program: string }>();

/** The owner and mint of an associated token account the simulator has derived, if any. */
export function tokenAccountOwner(address: string): { owner: string; mint: string; program: string } | undefined {
  return ataOwners.get(address);
}

/** The associated token account of `owner` for `mint` (classic Token program unless told). */
export function associatedTokenAddress(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey = ProgramId.token): PublicKey {
  const key = `${owner.toBuffer().toString('base64')}${mint.toBuffer().toString('base64')}${tokenProgram.toBuffer().toString('base64')}`;
  let ata = ataCache.get(key);
  if (!ata) {
    ata = memoized(PublicKey.findProgramAddressSync([owner.toBuffer(), tokenProgram.toBuffer(), mint.toBuffer()], ProgramId.associatedToken)[0]);
    if (ataCache.size >= ATA_CACHE_LIMIT) ataCache.clear();
    ataCache.set(key, ata);
    if (ataOwners.size >= ATA_CACHE_LIMIT * 5) ataOwners.clear();
    ataOwners.set(ata.toBase58(), { owner: owner.toBase58(), mint: mint.toBase58(), program: tokenProgram.toBase58() });
  }
  return ata;
}
