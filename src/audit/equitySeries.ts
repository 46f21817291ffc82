/**
 * The wallet marked to market over time: at each instant, every token held (the last snapshot at or
 * before it) times its last kept price at or before it, summed. It steps when a balance changes and
 * when a kept price does, and nowhere else. Exact: each holding's value is its base units times the
 * price over 10^decimals, rounded once toward zero at 18 places.
 */
import { type Fixed, ONE } from '../money/decimal.js';
import { indexAt, type PriceTrack } from './keptPrices.js';
import { USD_MINTS } from './tokenNames.js';
import type { BalanceSnapshot } from './walletSnapshots.js';

/** Dollars of `units` base units of a token with `decimals`, at `priceUsd` per whole token. */
export function valueUsd(units: bigint, decimals: number, priceUsd: Fixed): Fixed {
  return (units * priceUsd) / 10n ** BigInt(decimals);
}

export interface EquityPoint {
  readonly at: number;
  readonly usd: Fixed;
}

export interface Equity {
  readonly points: readonly EquityPoint[];
  /** Tokens held that no kept price values (nor are they dollars): left out of every point. */
  readonly unpriced: readonly string[];
}

/**
 * Equity at every instant something changed, from the first snapshot to `until` (its last point, the
 * value then). An instant at which a token held has a kept price later but none yet is left out
 * rather than drawn without that token.
 */
export function equitySeries(snapshots: readonly BalanceSnapshot[], prices: ReadonlyMap<string, PriceTrack>, until: number): Equity {
  const first = snapshots[0];
  if (first === undefined) return { points: [], unpriced: [] };
  const held = new Set<string>();
  for (const s of snapshots) for (const mint of s.balances.keys()) held.add(mint);
  const unpriced = [...held].filter((mint) => !USD_MINTS.has(mint) && !prices.has(mint)).sort();
  const instants = new Set<number>(snapshots.map((s) => s.at));
  for (const mint of held) for (const at of prices.get(mint)?.times ?? []) if (at >= first.at && at <= until) instants.add(at);
  if (until >= first.at) instants.add(until);
  const times = [...instants].filter((at) => at <= until).sort((a, b) => a - b);

  const points: EquityPoint[] = [];
  const cursor = new Map<string, number>();
  let next = 0;
  let snapshot: BalanceSnapshot = first;
  for (const at of times) {
    while (next < snapshots.length && (snapshots[next] as BalanceSnapshot).at <= at) snapshot = snapshots[next++] as BalanceSnapshot;
    let total = 0n;
    let complete = true;
    for (const [mint, balance] of snapshot.balances) {
      const price = USD_MINTS.has(mint) ? ONE : priceOf(prices.get(mint), at, mint, cursor);
      if (price === undefined) continue;
      if (price === null) {
        complete = false;
        break;
      }
      total += valueUsd(balance.units, balance.decimals, price);
    }
    if (complete) points.push({ at, usd: total });
  }
  return { points, unpriced };
}

/** The last kept price at or before `at` (undefined: never priced; null: not yet), walking a cursor forward as instants grow. */
function priceOf(track: PriceTrack | undefined, at: number, mint: string, cursor: Map<string, number>): Fixed | null | undefined {
  if (track === undefined) return undefined;
  let i = cursor.get(mint);
  if (i === undefined) i = indexAt(track, at);
  while (i + 1 < track.times.length && (track.times[i + 1] as number) <= at) i += 1;
  cursor.set(mint, i);
  return i < 0 ? null : track.usd[i];
}
