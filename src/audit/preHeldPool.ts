/**
 * The wallet's units held before jupbot (heldBefore.ts), as the P&L draws on them: one lot per
 * token, shared by every strategy, taken first come first served by the units a sale or swap moves
 * beyond its own strategy's lots, at the token's basis. Each take's cost is the pool's remaining
 * cost in proportion (rounded toward zero), so the takes and what remains add up to the pool's cost
 * exactly.
 *
 * A report narrowed by filters must not hand the same units out twice: it replays the takes the
 * whole history made (`allocatedPool`), so a strategy's figures are the same in a narrowed report as
 * in the full one.
 */
import { type Fixed, mulFixed, unitsToFixed } from '../money/decimal.js';
import type { PreHeld } from './heldBefore.js';
import type { Trade } from './trades.js';

export interface PoolTake {
  readonly units: bigint;
  readonly cost: Fixed;
}

/** What remains of one token's pre-held units, and their remaining cost. */
export interface PoolRemainder {
  readonly lot: PreHeld;
  readonly units: bigint;
  readonly cost: Fixed;
}

export interface PreHeldPool {
  /** Up to `units` of the trade's token (the one sold or given), and their cost. */
  take(trade: Trade, units: bigint): PoolTake;
  /** What no trade took, token by token. */
  remaining(): readonly PoolRemainder[];
}

/** A fill's natural key: one take per trade. */
const keyOf = (trade: Trade): string => `${trade.signature}:${trade.idx}`;

/** The pool of the whole history, first come first served; `taken` says what each trade took. */
export function sharedPool(lots: readonly PreHeld[]): PreHeldPool & { readonly taken: ReadonlyMap<string, PoolTake> } {
  const state = new Map(lots.map((lot) => [lot.mint, { lot, units: lot.units, cost: mulFixed(unitsToFixed(lot.units, lot.decimals), lot.basis.priceUsd) }]));
  const taken = new Map<string, PoolTake>();
  return {
    taken,
    take(trade, units) {
      const held = state.get(trade.token.mint);
      if (held === undefined || held.units === 0n || units <= 0n) return { units: 0n, cost: 0n };
      const n = units < held.units ? units : held.units;
      const cost = n === held.units ? held.cost : (held.cost * n) / held.units;
      held.units -= n;
      held.cost -= cost;
      const take = { units: n, cost };
      taken.set(keyOf(trade), take);
      return take;
    },
    remaining: () => [...state.values()].filter((r) => r.units > 0n).map((r) => ({ lot: r.lot, units: r.units, cost: r.cost })),
  };
}

/** The takes of an earlier pass, replayed for a subset of its trades; `remaining` is what the report shows as still held. */
export function allocatedPool(taken: ReadonlyMap<string, PoolTake>, remaining: readonly PoolRemainder[]): PreHeldPool {
  return {
    take(trade, units) {
      const given = taken.get(keyOf(trade));
      if (given === undefined || units <= 0n) return { units: 0n, cost: 0n };
      // A subset never holds more of a strategy's lots than the whole history did, so it asks at least as much.
      return units >= given.units ? given : { units, cost: (given.cost * units) / given.units };
    },
    remaining: () => remaining,
  };
}
