/** The P&L report as JSON: every figure exact decimal text (`jupbot audit pnl --json`, the HTML report). */
import { formatFixed, type Fixed, unitsToFixed } from '../strategies/decimal.js';
import type { PnlReport, StrategyPnl } from './pnl.js';

const exact = (value: Fixed | null): string | null => (value === null ? null : formatFixed(value));

function strategyJson(s: Omit<StrategyPnl, 'strategy' | 'holdings'> & Partial<Pick<StrategyPnl, 'strategy' | 'holdings'>>): Record<string, unknown> {
  return {
    ...(s.strategy === undefined ? {} : { strategy: s.strategy }),
    trades: s.trades,
    realizedUsd: formatFixed(s.realizedUsd),
    unrealizedUsd: exact(s.unrealizedUsd),
    feesUsd: formatFixed(s.feesUsd),
    unpricedFees: s.unpricedFees,
    unmatchedProceedsUsd: formatFixed(s.unmatchedProceedsUsd),
    ...(s.holdings === undefined
      ? {}
      : {
          holdings: s.holdings.map((h) => ({
            mint: h.mint,
            symbol: h.symbol,
            amount: formatFixed(unitsToFixed(h.units, h.decimals)),
            units: h.units.toString(),
            costUsd: formatFixed(h.costUsd),
            priceUsd: exact(h.priceUsd),
            valueUsd: exact(h.valueUsd),
            unrealizedUsd: exact(h.unrealizedUsd),
          })),
        }),
  };
}

/** The report as JSON: every figure exact decimal text. */
export function pnlJson(report: PnlReport): Record<string, unknown> {
  return { strategies: report.strategies.map(strategyJson), total: strategyJson(report.total) };
}
