/**
 * What the wallet held over time, as steps: each snapshot holds from its instant until the next.
 * The daemon records the wallet's balances (`wallet.balances`: every mint held, zero omitted, in
 * base units) on its first reading of a run and whenever they change; the report builds on those.
 * A database without any has only its fills to go by: the running sum of what each fill took out of
 * the wallet and brought in, from zero, which is the value the trades added, not the wallet's.
 */
import { z } from 'zod';
import type { Db } from '../store/db.js';
import { iterateActions } from '../store/actionQueries.js';
import type { Trade } from './trades.js';

export interface Balance {
  readonly decimals: number;
  /** Base units; negative only in the fills' running sum (more given than brought in). */
  readonly units: bigint;
}

export interface BalanceSnapshot {
  /** Epoch ms the balances were read (or the fill happened). */
  readonly at: number;
  /** By mint; a mint absent is not held. */
  readonly balances: ReadonlyMap<string, Balance>;
}

export interface WalletHistory {
  /** `wallet`: read from the wallet (`wallet.balances`); `fills`: the running sum of the fills, from zero. */
  readonly source: 'wallet' | 'fills';
  readonly snapshots: readonly BalanceSnapshot[];
  /** `wallet.balances` actions whose data is not the shape this report reads, left out. */
  readonly unreadable: number;
}

const WalletBalances = z.object({
  balances: z.array(z.object({ mint: z.string().min(1), decimals: z.number().int().min(0).max(255), amount: z.string().regex(/^\d+$/) })),
  readAt: z.number().int(),
});

/** The `wallet.balances` snapshots, in the order they were read. */
export function recordedBalances(db: Db): { snapshots: BalanceSnapshot[]; unreadable: number } {
  const snapshots: BalanceSnapshot[] = [];
  let unreadable = 0;
  for (const action of iterateActions(db, { kind: 'wallet.balances' })) {
    const parsed = WalletBalances.safeParse(JSON.parse(action.data));
    if (!parsed.success) {
      unreadable += 1;
      continue;
    }
    const balances = new Map<string, Balance>();
    for (const b of parsed.data.balances) if (b.amount !== '0') balances.set(b.mint, { decimals: b.decimals, units: BigInt(b.amount) });
    snapshots.push({ at: parsed.data.readAt, balances });
  }
  // A clock correction can put a reading before the one logged ahead of it: the log's order is the truth of which came last.
  for (let i = 1; i < snapshots.length; i++) {
    const previous = snapshots[i - 1] as BalanceSnapshot;
    const current = snapshots[i] as BalanceSnapshot;
    if (current.at < previous.at) snapshots[i] = { ...current, at: previous.at };
  }
  return { snapshots, unreadable };
}

/** The running sum of the fills (oldest first), one snapshot after each: what the trades moved in and out. */
export function fillBalances(trades: readonly Trade[]): BalanceSnapshot[] {
  const held = new Map<string, Balance>();
  const snapshots: BalanceSnapshot[] = [];
  const add = (mint: string, decimals: number, units: bigint): void => {
    const next = (held.get(mint)?.units ?? 0n) + units;
    if (next === 0n) held.delete(mint);
    else held.set(mint, { decimals, units: next });
  };
  for (const trade of trades) {
    // A buy gives the counter (dollars) for the token; a sell and a swap give the token for the counter.
    const [given, got] = trade.side === 'buy' ? [trade.counter, trade.token] : [trade.token, trade.counter];
    add(given.mint, given.decimals, -given.units);
    add(got.mint, got.decimals, got.units);
    const last = snapshots[snapshots.length - 1];
    const snapshot = { at: trade.at, balances: new Map(held) };
    // Fills of one instant make one step.
    if (last !== undefined && last.at === trade.at) snapshots[snapshots.length - 1] = snapshot;
    else snapshots.push(snapshot);
  }
  return snapshots;
}

/** The wallet's history: its recorded balances when the database has any, else the fills' running sum. */
export function walletHistory(db: Db, trades: readonly Trade[]): WalletHistory {
  const recorded = recordedBalances(db);
  if (recorded.snapshots.length > 0) return { source: 'wallet', ...recorded };
  return { source: 'fills', snapshots: fillBalances(trades), unreadable: recorded.unreadable };
}
