import { PublicKey } from '@solana/web3.js';

/** Addresses already checked: the same mints and wallets arrive on every request. */
const knownPubkeys = new Set<string>();

/** True for a base58 string that decodes to a 32-byte public key. */
export function isPubkey(value: unknown): value is string {
  if (typeof value !== 'string' || value.length < 32 || value.length > 44) return false;
  if (knownPubkeys.has(value)) return true;
  try {
    if (new PublicKey(value).toBase58() !== value) return false;
  } catch {
    return false;
  }
  if (knownPubkeys.size >= 10_000) knownPubkeys.clear();
  knownPubkeys.add(value);
  return true;
}

/** A non-negative integer amount in base units, as Jupiter sends them (string of digits). */
export function parseAmount(value: unknown): bigint | undefined {
  if (typeof value === 'string' && /^\d{1,30}$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return undefined;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
