/**
 * Profit and loss per strategy, first in first out, in dollars, exact to 18 decimal places (values
 * are rounded toward zero at each multiplication or division, never through a float). docs/audit.md
 * defines every figure and works an example through; the tests check it by hand-computed numbers.
 *
 * - A fill's amounts are what left and what reached the wallet: a fee is already inside them.
 * - A buy (dollars for a token) adds a lot: its units and the dollars paid.
 * - A sell (a token for dollars) consumes the oldest lots first; realized P&L grows by the dollars
 *   received less the cost of the units consumed. Units sold beyond the strategy's lots take units
 *   the wallet held before jupbot (preHeldPool.ts: shared by all strategies, first come first served,
 *   at the token's basis), and that cost is counted apart too (`basisCostUsd`). Units beyond both
 *   (prediction contracts bought elsewhere, a token without a basis) have no known cost: their
 *   proceeds are reported apart (`unmatchedProceedsUsd`), not as profit.
 * - A swap between two tokens neither of which is a dollar realises nothing: the lots (and pre-held
 *   units) it consumes pass their cost to the lot it buys.
 * - What remains is valued at the closing prices given (closingPrices.ts), as dollars for tokens,
 *   rounded once: unrealized P&L is that value less the remaining cost; a token with no price stays
 *   unvalued. Pre-held units no trade took are the wallet's holdings, at their basis.
 *
 * Trades are taken in the order given (oldest first), all strategies together, so the pool goes to
 * whichever sale came first.
 */
import { type Fixed, unitsToFixed } from '../money/decimal.js';
import type { Basis } from './heldBefore.js';
import type { PreHeldPool } from './preHeldPool.js';
import type { Trade } from './trades.js';

interface Lot {
  units: bigint;
  cost: Fixed;
  /** The part of `cost` that came from pre-held units' basis (through a swap). */
  basisCost: Fixed;
}

export interface Holding {
  readonly mint: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly units: bigint;
  /** What the remaining units cost, fees included. */
  readonly costUsd: Fixed;
  /** The part of `costUsd` that is a basis of units held before jupbot, not dollars jupbot paid. */
  readonly basisCostUsd: Fixed;
  /** The basis of the wallet's units held before jupbot; null for a strategy's lots. */
  readonly basis: Basis | null;
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
  /** Cost of units held before jupbot that the strategy's sales and swaps took, at their basis. */
  readonly basisCostUsd: Fixed;
  readonly holdings: readonly Holding[];
  /** Sum over holdings; null when one of them has no price. */
  readonly unrealizedUsd: Fixed | null;
}

/** The wallet's units held before jupbot that no trade took: valued like a strategy's holdings, at their basis. */
export interface PreHeldPnl {
  readonly holdings: readonly Holding[];
  readonly unrealizedUsd: Fixed | null;
}

export interface PnlReport {
  readonly strategies: readonly StrategyPnl[];
  readonly preHeld: PreHeldPnl;
  /** The strategies added up; `unrealizedUsd` includes the pre-held holdings'. */
  readonly total: Omit<StrategyPnl, 'strategy' | 'holdings'>;
}

/**
 * A price as dollars for tokens. Holdings are valued through the ratio, not the rounded price, so a
 * holding bought in the fill that gives the price is worth exactly what it cost.
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

/** Called after each trade with its strategy's realized P&L and positions so far (for equity curves), in trade order. */
export type PositionListener = (strategy: string | null, at: number, realizedUsd: Fixed, positions: readonly Position[]) => void;

const sum = (values: readonly Fixed[]): Fixed => values.reduce((a, b) => a + b, 0n);
const sumOrNull = (values: readonly (Fixed | null)[]): Fixed | null => (values.some((v) => v === null) ? null : sum(values as Fixed[]));

function valued(
  token: { mint: string; symbol: string; decimals: number },
  units: bigint,
  cost: { costUsd: Fixed; basisCostUsd: Fixed; basis: Basis | null },
  prices: ReadonlyMap<string, Quote>,
): Holding {
  const quote = prices.get(token.mint);
  const valueUsd = quote === undefined || quote.tokens === 0n ? null : (unitsToFixed(units, token.decimals) * quote.usd) / quote.tokens;
  return { ...token, units, ...cost, priceUsd: quote?.priceUsd ?? null, valueUsd, unrealizedUsd: valueUsd === null ? null : valueUsd - cost.costUsd };
}

/** One strategy's lots and running figures. */
class Book {
  readonly lots = new Map<string, Lot[]>();
  /** Per mint, the sum over its lots (kept as lots change, so a listener costs no walk over them). */
  readonly totals = new Map<string, { units: bigint; cost: Fixed }>();
  readonly tokens = new Map<string, { symbol: string; decimals: number }>();
  trades = 0;
  realized = 0n;
  fees = 0n;
  unpricedFees = 0;
  unmatched = 0n;
  basisCost = 0n;

  /** Takes `units` from the oldest lots of `mint`: their cost, the basis inside it, and the units no lot covered. */
  consume(mint: string, units: bigint): { cost: Fixed; basisCost: Fixed; uncovered: bigint } {
    const queue = this.lots.get(mint) ?? [];
    let left = units;
    let cost = 0n;
    let basisCost = 0n;
    while (left > 0n && queue.length > 0) {
      const lot = queue[0] as Lot;
      const taken = left < lot.units ? left : lot.units;
      const share = taken === lot.units ? lot.cost : (lot.cost * taken) / lot.units;
      const basisShare = taken === lot.units ? lot.basisCost : (lot.basisCost * taken) / lot.units;
      cost += share;
      basisCost += basisShare;
      lot.units -= taken;
      lot.cost -= share;
      lot.basisCost -= basisShare;
      left -= taken;
      if (lot.units === 0n) queue.shift();
    }
    const total = this.#total(mint);
    total.units -= units - left;
    total.cost -= cost;
    return { cost, basisCost, uncovered: left };
  }

  add(leg: Trade['token'], cost: Fixed, basisCost: Fixed): void {
    this.tokens.set(leg.mint, { symbol: leg.symbol, decimals: leg.decimals });
    const queue = this.lots.get(leg.mint) ?? [];
    queue.push({ units: leg.units, cost, basisCost });
    this.lots.set(leg.mint, queue);
    const total = this.#total(leg.mint);
    total.units += leg.units;
    total.cost += cost;
  }

  #total(mint: string): { units: bigint; cost: Fixed } {
    let total = this.totals.get(mint);
    if (total === undefined) this.totals.set(mint, (total = { units: 0n, cost: 0n }));
    return total;
  }

  positions(): Position[] {
    const out: Position[] = [];
    for (const [mint, t] of this.totals) if (t.units > 0n) out.push({ mint, decimals: this.tokens.get(mint)?.decimals ?? 0, units: t.units, costUsd: t.cost });
    return out;
  }

  report(strategy: string | null, prices: ReadonlyMap<string, Quote>): StrategyPnl {
    const holdings: Holding[] = [];
    for (const [mint, queue] of this.lots) {
      const units = queue.reduce((n, lot) => n + lot.units, 0n);
      if (units === 0n) continue;
      const { symbol, decimals } = this.tokens.get(mint) ?? { symbol: mint, decimals: 0 };
      const cost = { costUsd: sum(queue.map((lot) => lot.cost)), basisCostUsd: sum(queue.map((lot) => lot.basisCost)), basis: null };
      holdings.push(valued({ mint, symbol, decimals }, units, cost, prices));
    }
    holdings.sort((a, b) => a.symbol.localeCompare(b.symbol));
    return {
      strategy,
      trades: this.trades,
      realizedUsd: this.realized,
      feesUsd: this.fees,
      unpricedFees: this.unpricedFees,
      unmatchedProceedsUsd: this.unmatched,
      basisCostUsd: this.basisCost,
      holdings,
      unrealizedUsd: sumOrNull(holdings.map((h) => h.unrealizedUsd)),
    };
  }
}

/**
 * P&L of `trades` (oldest first), valued at `prices` (by default the latest each trade shows).
 * Without a `pool`, units sold beyond a strategy's lots have no known cost.
 */
export function computePnl(
  trades: readonly Trade[],
  prices: ReadonlyMap<string, Quote> = latestPrices(trades),
  onRealized?: RealizedListener,
  onPosition?: PositionListener,
  pool?: PreHeldPool,
): PnlReport {
  const books = new Map<string | null, Book>();
  for (const trade of trades) {
    let book = books.get(trade.strategy);
    if (book === undefined) books.set(trade.strategy, (book = new Book()));
    book.trades += 1;
    if (trade.fee !== null && trade.fee.usd === null) book.unpricedFees += 1;
    book.fees += trade.fee?.usd ?? 0n;
    if (trade.side === 'buy') {
      book.add(trade.token, trade.counter.amount, 0n);
    } else {
      const { cost, basisCost, uncovered } = book.consume(trade.token.mint, trade.token.units);
      const fromPool = uncovered > 0n && pool !== undefined ? pool.take(trade, uncovered) : { units: 0n, cost: 0n };
      book.basisCost += fromPool.cost;
      if (trade.side === 'sell') {
        const proceeds = trade.counter.amount;
        // The proceeds of units without a known cost are set apart in proportion.
        const unknown = uncovered - fromPool.units;
        const unmatchedShare = unknown === 0n ? 0n : (proceeds * unknown) / trade.token.units;
        book.unmatched += unmatchedShare;
        book.realized += proceeds - unmatchedShare - cost - fromPool.cost;
        onRealized?.(trade.strategy, trade.at, book.realized);
      } else {
        book.add(trade.counter, cost + fromPool.cost, basisCost + fromPool.cost);
      }
    }
    onPosition?.(trade.strategy, trade.at, book.realized, book.positions());
  }

  const strategies = [...books].sort(([a], [b]) => (a ?? '').localeCompare(b ?? '')).map(([strategy, book]) => book.report(strategy, prices));
  const preHeldHoldings = (pool?.remaining() ?? [])
    .map((r) => valued(r.lot, r.units, { costUsd: r.cost, basisCostUsd: r.cost, basis: r.lot.basis }, prices))
    .sort((a, b) => a.symbol.localeCompare(b.symbol));
  const preHeld = { holdings: preHeldHoldings, unrealizedUsd: sumOrNull(preHeldHoldings.map((h) => h.unrealizedUsd)) };
  return {
    strategies,
    preHeld,
    total: {
      trades: trades.length,
      realizedUsd: sum(strategies.map((s) => s.realizedUsd)),
      feesUsd: sum(strategies.map((s) => s.feesUsd)),
      unpricedFees: strategies.reduce((n, s) => n + s.unpricedFees, 0),
      unmatchedProceedsUsd: sum(strategies.map((s) => s.unmatchedProceedsUsd)),
      basisCostUsd: sum(strategies.map((s) => s.basisCostUsd)),
      unrealizedUsd: sumOrNull([...strategies.map((s) => s.unrealizedUsd), preHeld.unrealizedUsd]),
    },
  };
}
