/**
 * Profit and loss per strategy, first in first out, in dollars, exact to 18 decimal places (values
 * are rounded toward zero at each multiplication or division, never through a float). docs/audit.md
 * defines every figure and works an example through; the tests check it by hand-computed numbers.
 *
 * - A fill's amounts are what left and what reached the wallet: a fee is already inside them.
 * - A buy (dollars for a token) adds a lot: its units and the dollars paid.
 * - A sell (a token for dollars) consumes the oldest lots first; realized P&L grows by the dollars
 *   received less the cost of the units consumed. Units sold beyond the lots jupbot bought (a
 *   balance held before, prediction contracts bought elsewhere) have no known cost: their proceeds
 *   are reported apart (`unmatchedProceedsUsd`), not as profit.
 * - A swap between two tokens neither of which is a dollar realises nothing: the lots it consumes
 *   pass their cost to the lot it buys.
 * - What remains is valued at the latest dollar price any fill in the database shows for the token
 *   (as that fill's dollars for tokens, rounded once):
 *   unrealized P&L is that value less the remaining cost; a token with no such price stays unvalued.
 */
import { type Fixed, unitsToFixed } from '../strategies/decimal.js';
import type { Trade } from './trades.js';

interface Lot {
  units: bigint;
  cost: Fixed;
}

export interface Holding {
  readonly mint: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly units: bigint;
  /** What the remaining units cost, fees included. */
  readonly costUsd: Fixed;
  readonly priceUsd: Fixed | null;
  readonly valueUsd: Fixed | null;
  readonly unrealizedUsd: Fixed | null;
}

export interface StrategyPnl {
  /** The strategy's name; null for fills of adopted orders (no strategy). */
  readonly strategy: string | null;
  readonly trades: number;
  readonly realizedUsd: Fixed;
  /** Fees in dollars: already inside the amounts of the fills (what left and what arrived), shown for what they took. */
  readonly feesUsd: Fixed;
  /** Fees whose dollar value is unknown (paid in a token without a price at that fill). */
  readonly unpricedFees: number;
  readonly unmatchedProceedsUsd: Fixed;
  readonly holdings: readonly Holding[];
  /** Sum over holdings; null when one of them has no price. */
  readonly unrealizedUsd: Fixed | null;
}

export interface PnlReport {
  readonly strategies: readonly StrategyPnl[];
  readonly total: Omit<StrategyPnl, 'strategy' | 'holdings'>;
}

/**
 * A price as the fill that shows it: dollars for tokens. Holdings are valued through the ratio, not
 * the rounded price, so a holding bought in that very fill is worth exactly what it cost.
 */
export interface Quote {
  readonly usd: Fixed;
  readonly tokens: Fixed;
  /** usd ÷ tokens, rounded toward zero at 18 places: for display. */
  readonly priceUsd: Fixed;
}

/** The latest dollar price each token's fills show, over every strategy. */
export function latestPrices(trades: readonly Trade[]): Map<string, Quote> {
  const prices = new Map<string, Quote>();
  for (const trade of trades)
    if (trade.priceUsd !== null) prices.set(trade.token.mint, { usd: trade.counter.amount, tokens: trade.token.amount, priceUsd: trade.priceUsd });
  return prices;
}

/** Called after each sale with the strategy's realized P&L so far (for charts). */
export type RealizedListener = (strategy: string | null, at: number, realizedUsd: Fixed) => void;

/** What a strategy holds of one token after a trade: units and their remaining cost. */
export interface Position {
  readonly mint: string;
  readonly decimals: number;
  readonly units: bigint;
  readonly costUsd: Fixed;
}

/**
 * Called after each trade with the strategy's realized P&L and positions so far (for equity curves);
 * strategies are reported one after the other, each in trade order.
 */
export type PositionListener = (strategy: string | null, at: number, realizedUsd: Fixed, positions: readonly Position[]) => void;

/** P&L of `trades` (oldest first), valued at `prices` (by default the latest each trade shows). */
export function computePnl(
  trades: readonly Trade[],
  prices: ReadonlyMap<string, Quote> = latestPrices(trades),
  onRealized?: RealizedListener,
  onPosition?: PositionListener,
): PnlReport {
  const byStrategy = new Map<string | null, Trade[]>();
  for (const trade of trades) {
    const list = byStrategy.get(trade.strategy) ?? [];
    list.push(trade);
    byStrategy.set(trade.strategy, list);
  }
  const strategies = [...byStrategy]
    .sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''))
    .map(([strategy, list]) => strategyPnl(strategy, list, prices, onRealized, onPosition));
  const unrealized = strategies.some((s) => s.unrealizedUsd === null) ? null : strategies.reduce((sum, s) => sum + (s.unrealizedUsd ?? 0n), 0n);
  return {
    strategies,
    total: {
      trades: trades.length,
      realizedUsd: strategies.reduce((sum, s) => sum + s.realizedUsd, 0n),
      feesUsd: strategies.reduce((sum, s) => sum + s.feesUsd, 0n),
      unpricedFees: strategies.reduce((sum, s) => sum + s.unpricedFees, 0),
      unmatchedProceedsUsd: strategies.reduce((sum, s) => sum + s.unmatchedProceedsUsd, 0n),
      unrealizedUsd: unrealized,
    },
  };
}

function strategyPnl(
  strategy: string | null,
  trades: readonly Trade[],
  prices: ReadonlyMap<string, Quote>,
  onRealized?: RealizedListener,
  onPosition?: PositionListener,
): StrategyPnl {
  const lots = new Map<string, Lot[]>();
  /** Per mint, the sum over its lots (kept as lots change, so a listener costs no walk over them). */
  const totals = new Map<string, { units: bigint; cost: Fixed }>();
  const total = (mint: string): { units: bigint; cost: Fixed } => {
    let t = totals.get(mint);
    if (t === undefined) totals.set(mint, (t = { units: 0n, cost: 0n }));
    return t;
  };
  const tokens = new Map<string, { symbol: string; decimals: number }>();
  let realized = 0n;
  let fees = 0n;
  let unpricedFees = 0;
  let unmatched = 0n;

  /** Takes `units` from the oldest lots of `mint`; returns their cost and the units no lot covered. */
  const consume = (mint: string, units: bigint): { cost: Fixed; uncovered: bigint } => {
    const queue = lots.get(mint) ?? [];
    let left = units;
    let cost = 0n;
    while (left > 0n && queue.length > 0) {
      const lot = queue[0] as Lot;
      const taken = left < lot.units ? left : lot.units;
      const share = taken === lot.units ? lot.cost : (lot.cost * taken) / lot.units;
      cost += share;
      lot.units -= taken;
      lot.cost -= share;
      left -= taken;
      if (lot.units === 0n) queue.shift();
    }
    const t = total(mint);
    t.units -= units - left;
    t.cost -= cost;
    return { cost, uncovered: left };
  };
  const addLot = (trade: Trade['token'], cost: Fixed): void => {
    tokens.set(trade.mint, { symbol: trade.symbol, decimals: trade.decimals });
    const queue = lots.get(trade.mint) ?? [];
    queue.push({ units: trade.units, cost });
    lots.set(trade.mint, queue);
    const t = total(trade.mint);
    t.units += trade.units;
    t.cost += cost;
  };

  for (const trade of trades) {
    const feeUsd = trade.fee?.usd ?? 0n;
    if (trade.fee !== null && trade.fee.usd === null) unpricedFees += 1;
    fees += feeUsd;
    if (trade.side === 'buy') {
      addLot(trade.token, trade.counter.amount);
    } else if (trade.side === 'sell') {
      const proceeds = trade.counter.amount;
      const { cost, uncovered } = consume(trade.token.mint, trade.token.units);
      // The proceeds of units without a known cost are set apart in proportion.
      const unmatchedShare = uncovered === 0n ? 0n : (proceeds * uncovered) / trade.token.units;
      unmatched += unmatchedShare;
      realized += proceeds - unmatchedShare - cost;
      onRealized?.(strategy, trade.at, realized);
    } else {
      const { cost } = consume(trade.token.mint, trade.token.units);
      addLot(trade.counter, cost);
    }
    if (onPosition) {
      const positions: Position[] = [];
      for (const [mint, t] of totals) if (t.units > 0n) positions.push({ mint, decimals: tokens.get(mint)?.decimals ?? 0, units: t.units, costUsd: t.cost });
      onPosition(strategy, trade.at, realized, positions);
    }
  }

  const holdings: Holding[] = [];
  for (const [mint, queue] of lots) {
    const units = queue.reduce((sum, lot) => sum + lot.units, 0n);
    if (units === 0n) continue;
    const { symbol, decimals } = tokens.get(mint) ?? { symbol: mint, decimals: 0 };
    const costUsd = queue.reduce((sum, lot) => sum + lot.cost, 0n);
    const quote = prices.get(mint);
    const priceUsd = quote?.priceUsd ?? null;
    const valueUsd = quote === undefined || quote.tokens === 0n ? null : (unitsToFixed(units, decimals) * quote.usd) / quote.tokens;
    holdings.push({ mint, symbol, decimals, units, costUsd, priceUsd, valueUsd, unrealizedUsd: valueUsd === null ? null : valueUsd - costUsd });
  }
  holdings.sort((a, b) => a.symbol.localeCompare(b.symbol));
  const unrealizedUsd = holdings.some((h) => h.unrealizedUsd === null) ? null : holdings.reduce((sum, h) => sum + (h.unrealizedUsd ?? 0n), 0n);
  return { strategy, trades: trades.length, realizedUsd: realized, feesUsd: fees, unpricedFees, unmatchedProceedsUsd: unmatched, holdings, unrealizedUsd };
}
