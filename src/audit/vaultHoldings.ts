/**
 * What the wallet's vault orders hold, over time. A Trigger order's deposit leaves the wallet's
 * token accounts for the order's vault, so the wallet's recorded balances drop when an order is
 * placed and come back when it is cancelled, though the money stayed the wallet's. Equity adds
 * each order's deposit from its creation until it ended, less what its fills took from it. An
 * OCO's two legs share one deposit and count once, until the first of them ends.
 *
 * The wallet is read on its own schedule, so the reading that shows a deposit gone (or a fill's
 * proceeds arrived) comes a little before or after the order's own instant. Counting the order from
 * its own instant would show the money twice, or not at all, for that moment: a spike in the curve
 * that never was. So each change of an order is counted from the wallet reading that shows it —
 * the nearest one within {@link ALIGN_MS} in which that token's balance moved that way — and from
 * its own instant when there is none.
 */
import type { Db } from '../store/db.js';
import { orderFillRecords, vaultOrderRecords } from '../store/reportRecords.js';
import { orderKey } from './orderKey.js';
import type { Balance, BalanceSnapshot } from './walletSnapshots.js';

/** How far a wallet reading may be from an order's change and still be the one that shows it. */
export const ALIGN_MS = 10 * 60_000;

export interface VaultHolding {
  readonly mint: string;
  readonly decimals: number;
  /** What a fill of it brings into the wallet. */
  readonly outMint: string;
  /** The deposit, base units. */
  readonly deposit: bigint;
  /** From its creation to its end (null: still open), epoch ms. */
  readonly from: number;
  readonly until: number | null;
  /** What each fill took from it, oldest first. */
  readonly fills: readonly { readonly at: number; readonly units: bigint }[];
}

/** Every order's deposit as one holding (an OCO's legs together). */
export function vaultHoldings(db: Db): VaultHolding[] {
  const fills = new Map<string, { at: number; units: bigint }[]>();
  for (const f of orderFillRecords(db)) {
    const list = fills.get(f.order_id);
    if (list === undefined) fills.set(f.order_id, [{ at: f.at, units: BigInt(f.in_amount) }]);
    else list.push({ at: f.at, units: BigInt(f.in_amount) });
  }
  const groups = new Map<string, VaultHolding>();
  for (const o of vaultOrderRecords(db)) {
    const key = orderKey(o);
    const own = fills.get(o.id) ?? [];
    const until = o.live === 1 ? null : o.ended_at;
    const group = groups.get(key);
    if (group === undefined) {
      const holding = { mint: o.input_mint, decimals: o.input_decimals, outMint: o.output_mint, deposit: BigInt(o.input_amount), from: o.created_at, until };
      groups.set(key, { ...holding, fills: [...own] });
      continue;
    }
    // The legs share one deposit, and it leaves the vault when the first leg ends (one fills, or our
    // cancel withdraws it): the other leg's end is often learned a sync later, and counting the
    // deposit until then would show it twice, in the vault and back in the wallet.
    const end = group.until === null ? until : until === null ? group.until : Math.min(group.until, until);
    groups.set(key, { ...group, from: Math.min(group.from, o.created_at), until: end, fills: [...group.fills, ...own].sort((a, b) => a.at - b.at) });
  }
  return [...groups.values()];
}

/** What `holding` still held at `at` (0 outside its life). */
export function heldAt(holding: VaultHolding, at: number): bigint {
  if (at < holding.from || (holding.until !== null && at >= holding.until)) return 0n;
  const left = holding.fills.reduce((sum, f) => (f.at <= at ? sum - f.units : sum), holding.deposit);
  return left > 0n ? left : 0n;
}

/**
 * The instant of the wallet reading nearest `at` (within ALIGN_MS, and always up to the first reading
 * at or after `at`) in which `mint`'s balance went
 * `way` (a deposit leaves: down; a withdrawal or a fill's proceeds arrive: up); `at` when none.
 */
function readingOf(snapshots: readonly BalanceSnapshot[], mint: string, at: number, way: 'down' | 'up'): number {
  // Snapshots are in time order: start at the first within the window.
  let low = 0;
  let high = snapshots.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((snapshots[mid] as BalanceSnapshot).at < at - ALIGN_MS) low = mid + 1;
    else high = mid;
  }
  // The first reading at or after the change may come later than the window (a backtest reads every
  // step): the wallet cannot show the change before it happened, so that reading is always looked at.
  let after = low;
  while (after < snapshots.length && (snapshots[after] as BalanceSnapshot).at < at) after += 1;
  const limit = Math.max(at + ALIGN_MS, snapshots[after]?.at ?? at);
  let best = at;
  let distance = Infinity;
  for (let i = Math.max(1, low); i < snapshots.length && (snapshots[i] as BalanceSnapshot).at <= limit; i++) {
    const s = snapshots[i] as BalanceSnapshot;
    const gap = Math.abs(s.at - at);
    if (gap >= distance) continue;
    const change = (s.balances.get(mint)?.units ?? 0n) - ((snapshots[i - 1] as BalanceSnapshot).balances.get(mint)?.units ?? 0n);
    if (way === 'down' ? change >= 0n : change <= 0n) continue;
    best = s.at;
    distance = gap;
  }
  return best;
}

/** Each holding's changes moved to the wallet readings that show them. */
export function alignedToReadings(vaults: readonly VaultHolding[], snapshots: readonly BalanceSnapshot[]): VaultHolding[] {
  return vaults.map((v) => ({
    ...v,
    from: readingOf(snapshots, v.mint, v.from, 'down'),
    until: v.until === null ? null : readingOf(snapshots, v.mint, v.until, 'up'),
    fills: v.fills.map((f) => ({ at: readingOf(snapshots, v.outMint, f.at, 'up'), units: f.units })),
  }));
}

/**
 * The wallet's snapshots with what its vault orders held added (`vaults` aligned to the readings).
 * Only at the readings: between two of them the wallet's side is not known, and an order's change
 * that no reading showed yet (a renewal's withdrawal and new deposit between the same two readings)
 * would count the money twice or not at all at its own instant.
 */
export function withVaultFunds(snapshots: readonly BalanceSnapshot[], vaults: readonly VaultHolding[]): BalanceSnapshot[] {
  const first = snapshots[0];
  if (first === undefined || vaults.length === 0) return [...snapshots];
  const times = snapshots.map((s) => s.at);
  const out: BalanceSnapshot[] = [];
  let next = 0;
  let wallet = first;
  for (const at of times) {
    while (next < snapshots.length && (snapshots[next] as BalanceSnapshot).at <= at) wallet = snapshots[next++] as BalanceSnapshot;
    const balances = new Map<string, Balance>(wallet.balances);
    for (const v of vaults) {
      const held = heldAt(v, at);
      if (held === 0n) continue;
      balances.set(v.mint, { decimals: v.decimals, units: (balances.get(v.mint)?.units ?? 0n) + held });
    }
    out.push({ at, balances });
  }
  return out;
}
