/**
 * The exits the loss protections count: every sale of a token for dollars, in fill order, across
 * all strategies (and adopted orders), with the P&L it realized. The P&L is the one `/status`
 * shows as today's (first in, first out over the whole history, audit/pnl.ts): a sale's realized
 * P&L is its proceeds less the cost of the lots it consumed. A sale of units jupbot did not buy has
 * no known cost, realizes nothing here, and is neither a loss nor a win. Swaps between two tokens
 * neither of which is a dollar realize nothing and are not exits.
 *
 * A losing exit is a sale that realized less than zero; one that realized zero or more ends a
 * losing streak.
 */
import { computePnl } from '../audit/pnl.js';
import { tokenNamer } from '../audit/tokenNames.js';
import { toTrade } from '../audit/trades.js';
import type { Fixed } from '../money/decimal.js';
import type { Db } from '../store/db.js';
import { listFills, pinnedSymbols } from '../store/fillRecords.js';

export interface Exit {
  readonly at: number;
  readonly strategy: string | null;
  /** What this sale realized, dollars (below zero: a loss). */
  readonly realizedUsd: Fixed;
}

/** Every exit, oldest first. */
export function realizedExits(db: Db): Exit[] {
  const name = tokenNamer(pinnedSymbols(db));
  const trades = listFills(db).map((fill) => toTrade(fill, name));
  const before = new Map<string | null, Fixed>();
  const exits: Exit[] = [];
  computePnl(trades, undefined, (strategy, at, realized) => {
    exits.push({ at, strategy, realizedUsd: realized - (before.get(strategy) ?? 0n) });
    before.set(strategy, realized);
  });
  return exits;
}

/** What the exits at or after `since` realized together, dollars (below zero: a loss). */
export function realizedSince(exits: readonly Exit[], since: number): Fixed {
  return exits.reduce((sum, e) => (e.at >= since ? sum + e.realizedUsd : sum), 0n);
}

/**
 * Where `losingExits` losing exits in a row began a cooldown: the instants of the exits that
 * completed each streak. The count starts again after each: a fourth loss after a streak of three
 * is the first of the next streak, so a cooldown is never extended by the streak that started it.
 */
export function streakEnds(exits: readonly Exit[], losingExits: number): { at: number; losses: Fixed }[] {
  const out: { at: number; losses: Fixed }[] = [];
  let streak = 0;
  let losses = 0n;
  for (const exit of exits) {
    if (exit.realizedUsd >= 0n) {
      streak = 0;
      losses = 0n;
      continue;
    }
    streak += 1;
    losses += exit.realizedUsd;
    if (streak === losingExits) {
      out.push({ at: exit.at, losses });
      streak = 0;
      losses = 0n;
    }
  }
  return out;
}

/** Losing exits at the end of the history since the last exit that was not one (or the last streak's end). */
export function currentStreak(exits: readonly Exit[], losingExits: number): number {
  let streak = 0;
  for (const exit of exits) streak = exit.realizedUsd >= 0n ? 0 : streak + 1 === losingExits ? 0 : streak + 1;
  return streak;
}
