import type { PublicKey } from '@solana/web3.js';
import { derivedAddress, pubkey } from './programIds.js';

/**
 * The venues the simulator routes through, with their `Swap` variant as Aggregator v6's IDL numbers
 * it; a sided venue (a-to-b, or the order-book side) carries one flag. A pair's venue follows its
 * input token's decimals, so the quote's label and the transaction's instruction always agree.
 */
const VENUES = [
  { label: 'Raydium CLMM', variant: 26, sided: false },
  { label: 'Orca Whirlpool', variant: 17, sided: true },
  { label: 'Meteora DLMM', variant: 38, sided: false },
  { label: 'Phoenix', variant: 28, sided: true },
] as const;

const venueAt = (decimals: number): (typeof VENUES)[number] => VENUES[decimals % VENUES.length] as (typeof VENUES)[number];

/** The DEX label a quote's `routePlan` names for a pair whose input token has `decimals`. */
export function venueLabel(decimals: number): string {
  return venueAt(decimals).label;
}

/** The venue a pair trades on: its `Swap` variant with its fields, and the pool's accounts. */
export function venueOf(a: string, b: string, decimals: number): { pair: string; swap: { variant: number; fields: number[] }; accounts: PublicKey[] } {
  const [x, y] = a < b ? [a, b] : [b, a];
  const pair = `${x}:${y}`;
  const pool = pubkey(poolKey(a, b));
  const accounts = [pool, derivedAddress(`jupbot-sim:pool-vault:${pair}:${x}`), derivedAddress(`jupbot-sim:pool-vault:${pair}:${y}`)];
  const venue = venueAt(decimals);
  return { pair, swap: { variant: venue.variant, fields: venue.sided ? [a < b ? 1 : 0] : [] }, accounts };
}

const poolCache = new Map<string, string>();

/** A stable pool address per pair, for `routePlan[].swapInfo.ammKey` and the swap's accounts. */
export function poolKey(a: string, b: string): string {
  const label = a < b ? `${a}:${b}` : `${b}:${a}`;
  let key = poolCache.get(label);
  if (!key) {
    key = derivedAddress(`jupbot-sim:pool:${label}`).toBase58();
    poolCache.set(label, key);
  }
  return key;
}
