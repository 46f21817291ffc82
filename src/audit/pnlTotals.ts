/**
 * The P&L totals of several wallets added up (`jupbot audit pnl --db A --db B`): each figure the
 * exact sum of the wallets' figures, in the same fixed-point dollars, never through a float. An
 * unrealized P&L that one wallet cannot value (a holding without a price) leaves the sum unknown too.
 */
import type { Fixed } from '../money/decimal.js';
import type { PnlReport } from './pnl.js';

export type PnlTotal = PnlReport['total'];

const sum = (values: readonly Fixed[]): Fixed => values.reduce((a, b) => a + b, 0n);

export function addPnlTotals(totals: readonly PnlTotal[]): PnlTotal {
  const unrealized = totals.map((t) => t.unrealizedUsd);
  return {
    trades: totals.reduce((n, t) => n + t.trades, 0),
    realizedUsd: sum(totals.map((t) => t.realizedUsd)),
    feesUsd: sum(totals.map((t) => t.feesUsd)),
    unpricedFees: totals.reduce((n, t) => n + t.unpricedFees, 0),
    unmatchedProceedsUsd: sum(totals.map((t) => t.unmatchedProceedsUsd)),
    basisCostUsd: sum(totals.map((t) => t.basisCostUsd)),
    unrealizedUsd: unrealized.some((u) => u === null) ? null : sum(unrealized as Fixed[]),
  };
}
