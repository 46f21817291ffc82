/**
 * The P&L report as JSON: every figure exact decimal text (`jupbot audit pnl --json`, the HTML
 * report). A figure that comes from a basis of units held before jupbot says so: `basisCostUsd` per
 * strategy, total and holding, and `basis` (its source, price and time) on the wallet's own holdings.
 */
import { formatFixed, type Fixed, unitsToFixed } from '../money/decimal.js';
import { basisJson } from './heldBefore.js';
import type { Holding, PnlReport, StrategyPnl } from './pnl.js';

/** How the wallet's holdings of units held before jupbot are named where a strategy's would be. */
export const PRE_HELD_LABEL = 'held before jupbot';

const exact = (value: Fixed | null): string | null => (value === null ? null : formatFixed(value));

function holdingJson(h: Holding): Record<string, unknown> {
  return {
    mint: h.mint,
    symbol: h.symbol,
    amount: formatFixed(unitsToFixed(h.units, h.decimals)),
    units: h.units.toString(),
    costUsd: formatFixed(h.costUsd),
    basisCostUsd: formatFixed(h.basisCostUsd),
    basis: h.basis === null ? null : basisJson(h.basis),
    priceUsd: exact(h.priceUsd),
    valueUsd: exact(h.valueUsd),
    unrealizedUsd: exact(h.unrealizedUsd),
  };
}

/** One strategy's figures (or the total's, without name and holdings) as exact decimal text. */
export function strategyJson(s: Omit<StrategyPnl, 'strategy' | 'holdings'> & Partial<Pick<StrategyPnl, 'strategy' | 'holdings'>>): Record<string, unknown> {
  return {
    ...(s.strategy === undefined ? {} : { strategy: s.strategy }),
    trades: s.trades,
    realizedUsd: formatFixed(s.realizedUsd),
    unrealizedUsd: exact(s.unrealizedUsd),
    feesUsd: formatFixed(s.feesUsd),
    unpricedFees: s.unpricedFees,
    unmatchedProceedsUsd: formatFixed(s.unmatchedProceedsUsd),
    basisCostUsd: formatFixed(s.basisCostUsd),
    ...(s.holdings === undefined ? {} : { holdings: s.holdings.map(holdingJson) }),
  };
}

/** The report as JSON: every figure exact decimal text. */
export function pnlJson(report: PnlReport): Record<string, unknown> {
  return {
    strategies: report.strategies.map(strategyJson),
    preHeld: {
      strategy: null,
      label: PRE_HELD_LABEL,
      unrealizedUsd: exact(report.preHeld.unrealizedUsd),
      holdings: report.preHeld.holdings.map(holdingJson),
    },
    total: strategyJson(report.total),
  };
}
