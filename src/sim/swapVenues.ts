import type { PublicKey } from '@solana/web3.js';
import { derivedAddress, pubkey } from './programIds.js';

/**
 * The venues the simulator routes through, each with its `Swap` variant index in Aggregator v6 and
 * the bytes of that variant's fields. They span the program's whole index range, as mainnet routes
 * do: venues the public IDLs describe (up to index 108), and venues past them (122, 125, 141, 186,
 * the indices real routes of 2026 used), whose names here are the simulator's own and whose only
 * description is the on-chain IDL account the simulator serves (aggregatorIdl.ts). Unlisted venues
 * are in no IDL at all: they appear only when a test routes through them on purpose.
 */
export interface SimVenue {
  readonly label: string;
  readonly variant: number;
  /** The variant's field bytes for a swap from `a` to `b` (sided venues encode the direction). */
  readonly fields: (aToB: boolean) => readonly number[];
  /** False for venues past every IDL the simulator serves. */
  readonly listed: boolean;
}

const u64 = (value: bigint): number[] => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(value);
  return [...b];
};
const u32 = (value: number): number[] => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value);
  return [...b];
};
const bool = (v: boolean): number => (v ? 1 : 0);
/** A `RemainingAccountsInfo` with one slice of `length` accounts of kind `type`. */
const remaining = (type: number, length: number): number[] => [...u32(1), type, length];

export const VENUES: readonly SimVenue[] = [
  { label: 'Raydium CLMM', variant: 26, fields: () => [], listed: true },
  { label: 'Orca Whirlpool', variant: 17, fields: (aToB) => [bool(aToB)], listed: true },
  { label: 'Meteora DLMM', variant: 38, fields: () => [], listed: true },
  { label: 'Phoenix', variant: 28, fields: (aToB) => [aToB ? 1 : 0], listed: true },
  // Whirlpool's v2 swap: a direction and an optional slice of remaining accounts.
  { label: 'Whirlpools V2', variant: 47, fields: (aToB) => [bool(aToB), 1, ...remaining(0, 2)], listed: true },
  { label: 'Meteora DLMM V2', variant: 75, fields: () => remaining(6, 1), listed: true },
  { label: 'HumidiFi', variant: 87, fields: (aToB) => [...u64(0x5eedn), bool(aToB)], listed: true },
  { label: 'GoonFi', variant: 86, fields: (aToB) => [bool(aToB), 3], listed: true },
  // Past the public IDLs: described only by the simulator's on-chain IDL account.
  { label: 'Tessera Z', variant: 122, fields: () => [], listed: true },
  { label: 'Obsidian', variant: 125, fields: (aToB) => [bool(aToB), 7], listed: true },
  { label: 'Aurora CLOB', variant: 141, fields: (aToB) => [aToB ? 1 : 0, ...u64(250_000n), 1, ...remaining(2, 3)], listed: true },
  { label: 'Lumen', variant: 186, fields: () => [9, 8, 7, 6, ...u32(42)], listed: true },
  // In no IDL: only for tests that route through them on purpose.
  { label: 'Unlisted AMM A', variant: 230, fields: () => [], listed: false },
  { label: 'Unlisted AMM B', variant: 231, fields: () => [], listed: false },
  { label: 'Unlisted AMM C', variant: 232, fields: () => [], listed: false },
];

const LISTED = VENUES.filter((v) => v.listed);

export function venueByLabel(label: string): SimVenue | undefined {
  return VENUES.find((v) => v.label === label);
}

/** One step of a route: a venue, the share of the input it takes (basis points). */
export interface VenueStep {
  readonly venue: SimVenue;
  readonly bps: number;
}

const hashOf = (text: string): number => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
};

/**
 * The venues a pair trades on, best first: a pair's route is fixed by its tokens, so quotes for one
 * pair always name the same venues. Every third pair splits its input across two venues (70/30).
 * `excluded` labels (the order's `excludeDexes`) are never used; `preferred`, when given, replaces
 * the pair's own venues (a test routing through chosen venues, unlisted ones included).
 */
export function routeOf(a: string, b: string, excluded: ReadonlySet<string>, preferred: readonly string[] | null = null): VenueStep[] {
  const [x, y] = a < b ? [a, b] : [b, a];
  if (preferred !== null) {
    const venue = preferred.map(venueByLabel).find((v): v is SimVenue => v !== undefined && !excluded.has(v.label));
    return venue ? [{ venue, bps: 10_000 }] : [];
  }
  const h = hashOf(`${x}:${y}`);
  const order = LISTED.map((_, i) => LISTED[(h + i) % LISTED.length] as SimVenue).filter((v) => !excluded.has(v.label));
  const [first, second] = order;
  if (!first) return [];
  if (second && h % 3 === 0)
    return [
      { venue: first, bps: 7_000 },
      { venue: second, bps: 3_000 },
    ];
  return [{ venue: first, bps: 10_000 }];
}

/** The pool accounts of a pair at a venue (passed to the route as remaining accounts, through a lookup table). */
export function poolAccounts(a: string, b: string, venue: SimVenue): PublicKey[] {
  const [x, y] = a < b ? [a, b] : [b, a];
  const pair = `${x}:${y}`;
  return [
    pubkey(poolKey(a, b, venue)),
    derivedAddress(`jupbot-sim:pool-vault:${venue.label}:${pair}:${x}`),
    derivedAddress(`jupbot-sim:pool-vault:${venue.label}:${pair}:${y}`),
  ];
}

const poolCache = new Map<string, string>();

/** A stable pool address per pair and venue, for `routePlan[].swapInfo.ammKey` and the swap's accounts. */
export function poolKey(a: string, b: string, venue: SimVenue): string {
  const label = `${venue.label}:${a < b ? `${a}:${b}` : `${b}:${a}`}`;
  let key = poolCache.get(label);
  if (!key) {
    key = derivedAddress(`jupbot-sim:pool:${label}`).toBase58();
    if (poolCache.size >= 10_000) poolCache.clear();
    poolCache.set(label, key);
  }
  return key;
}
