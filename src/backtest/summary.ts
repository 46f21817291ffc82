/**
 * A backtest's result per strategy: trades, realized and unrealized P&L, the deepest drawdown and
 * fees, in dollars, exact. The P&L is the database's, computed as `jupbot audit pnl` computes it
 * (audit/databasePnl.ts): the same figures, the paper wallet's opening balance as the units it held
 * before jupbot, valued at the last prices the daemon kept.
 *
 * The drawdown follows each strategy's equity — realized P&L plus what its holdings are worth less
 * what they cost — at every instant of the history and every fill; it is the largest fall from a
 * peak (starting at 0, before the first trade). Nothing here depends on the machine or the time of
 * day: the same run gives the same summary, byte for byte.
 */
import { basename } from 'node:path';
import { databasePnl } from '../audit/databasePnl.js';
import { latestPrices, type Position, type Quote } from '../audit/pnl.js';
import { tokenNamer } from '../audit/tokenNames.js';
import { toTrade } from '../audit/trades.js';
import type { Db } from '../store/db.js';
import { listFills, pinnedSymbols } from '../store/fillRecords.js';
import { type Fixed, formatFixed, mulFixed, unitsToFixed } from '../money/decimal.js';
import type { PriceHistory } from './priceFile.js';
import { idleReason, loadedStrategies } from './strategyRoster.js';

export interface StrategySummary {
  readonly strategy: string;
  readonly trades: number;
  readonly realizedUsd: Fixed;
  readonly unrealizedUsd: Fixed | null;
  readonly maxDrawdownUsd: Fixed;
  readonly feesUsd: Fixed;
  readonly unmatchedProceedsUsd: Fixed;
  /** Cost taken from the basis of units the wallet held before jupbot (its opening balance). */
  readonly basisCostUsd: Fixed;
}

export interface BacktestSummary {
  readonly from: number;
  readonly to: number;
  readonly seed: string;
  readonly priceSteps: number;
  readonly strategies: readonly StrategySummary[];
  /** The opening balance no strategy sold, at its basis: unrealized P&L; null when none is left. */
  readonly preHeld: { readonly unrealizedUsd: Fixed | null } | null;
  /** The strategies and the pre-held holdings added up (the drawdown is the strategies'). */
  readonly total: Omit<StrategySummary, 'strategy'>;
  /** Things the reader should know: why a strategy made no trade, tokens held still, marks skipped. */
  readonly notes: readonly string[];
}

interface Step {
  readonly at: number;
  readonly strategy: string | null;
  readonly realized: Fixed;
  readonly positions: readonly Position[];
}

/**
 * The deepest fall of the equity of `steps` (one strategy's, or all of them, in trade order) from its
 * peak, over the history's instants and the fills: positions come from one pass of the P&L.
 */
function maxDrawdown(steps: readonly Step[], history: PriceHistory, from: number, to: number, fallback: ReadonlyMap<string, Quote>): Fixed {
  const prices = new Map<string, Fixed>();
  for (const [key, quote] of fallback) prices.set(key, quote.usd);
  const latest = new Map<string | null, Step>();
  let peak = 0n;
  let deepest = 0n;
  let next = 0;
  const observe = (): void => {
    let equity = 0n;
    for (const step of latest.values()) {
      equity += step.realized;
      for (const p of step.positions) {
        const price = prices.get(p.mint);
        if (price !== undefined) equity += mulFixed(unitsToFixed(p.units, p.decimals), price) - p.costUsd;
      }
    }
    if (equity > peak) peak = equity;
    if (peak - equity > deepest) deepest = peak - equity;
  };
  const fillsUpTo = (at: number): void => {
    for (; next < steps.length && (steps[next] as Step).at <= at; next++) latest.set((steps[next] as Step).strategy, steps[next] as Step);
  };
  for (const step of history.steps) {
    if (step.at > to) break;
    for (const point of step.points) prices.set(point.key, point.usd);
    if (step.at < from) continue;
    fillsUpTo(step.at);
    observe();
  }
  fillsUpTo(Number.POSITIVE_INFINITY);
  observe();
  return deepest;
}

/**
 * One row per strategy the daemon loaded or that traded, by the name it declares; `run.files` are the
 * strategy files tested (a file none was loaded from is noted, never given a row of its own).
 */
export function summarize(db: Db, history: PriceHistory, run: { from: number; to: number; seed: string; files: readonly string[] }): BacktestSummary {
  const name = tokenNamer(pinnedSymbols(db));
  const trades = listFills(db).map((fill) => toTrade(fill, name));
  const steps: Step[] = [];
  const report = databasePnl(db, {}, { trades, onPosition: (strategy, at, realized, positions) => steps.push({ at, strategy, realized, positions }) });
  const byName = new Map(report.strategies.map((s) => [s.strategy ?? '(adopted)', s]));
  const loaded = loadedStrategies(db, run.files);
  const names = [...new Set([...loaded.names, ...byName.keys()])].sort();
  const strategies = names.map((strategy): StrategySummary => {
    const pnl = byName.get(strategy);
    const own = (t: { strategy: string | null }): boolean => (t.strategy ?? '(adopted)') === strategy;
    return {
      strategy,
      trades: pnl?.trades ?? 0,
      realizedUsd: pnl?.realizedUsd ?? 0n,
      unrealizedUsd: pnl ? pnl.unrealizedUsd : 0n,
      maxDrawdownUsd: maxDrawdown(steps.filter(own), history, run.from, run.to, latestPrices(trades.filter(own))),
      feesUsd: pnl?.feesUsd ?? 0n,
      unmatchedProceedsUsd: pnl?.unmatchedProceedsUsd ?? 0n,
      basisCostUsd: pnl?.basisCostUsd ?? 0n,
    };
  });
  const held = new Set(trades.map((t) => t.token.mint));
  const notes = [
    ...strategies.filter((s) => s.trades === 0).map((s) => `${s.strategy}: ${idleReason(db, s.strategy, history)}`),
    ...loaded.unloaded.map((file) => `${basename(file)}: no strategy loaded from it (backtest.log says why)`),
    ...[...held]
      .filter((mint) => !history.keys.includes(mint))
      .sort()
      .map((mint) => `${name(mint)}: the price history has no price for it; the simulated market held it still`),
  ];
  return {
    from: run.from,
    to: run.to,
    seed: run.seed,
    priceSteps: history.steps.filter((s) => s.at >= run.from && s.at <= run.to).length,
    strategies,
    preHeld: report.preHeld.holdings.length === 0 ? null : { unrealizedUsd: report.preHeld.unrealizedUsd },
    total: {
      trades: report.total.trades,
      realizedUsd: report.total.realizedUsd,
      unrealizedUsd: report.total.unrealizedUsd,
      maxDrawdownUsd: maxDrawdown(steps, history, run.from, run.to, latestPrices(trades)),
      feesUsd: report.total.feesUsd,
      unmatchedProceedsUsd: report.total.unmatchedProceedsUsd,
      basisCostUsd: report.total.basisCostUsd,
    },
    notes,
  };
}

const exact = (v: Fixed | null): string | null => (v === null ? null : formatFixed(v));

export function summaryJson(summary: BacktestSummary): Record<string, unknown> {
  const figures = (s: Omit<StrategySummary, 'strategy'>): Record<string, unknown> => ({
    trades: s.trades,
    realizedUsd: formatFixed(s.realizedUsd),
    unrealizedUsd: exact(s.unrealizedUsd),
    maxDrawdownUsd: formatFixed(s.maxDrawdownUsd),
    feesUsd: formatFixed(s.feesUsd),
    unmatchedProceedsUsd: formatFixed(s.unmatchedProceedsUsd),
    basisCostUsd: formatFixed(s.basisCostUsd),
  });
  return {
    from: new Date(summary.from).toISOString(),
    to: new Date(summary.to).toISOString(),
    seed: summary.seed,
    priceSteps: summary.priceSteps,
    strategies: summary.strategies.map((s) => ({ strategy: s.strategy, ...figures(s) })),
    preHeld: summary.preHeld === null ? null : { unrealizedUsd: exact(summary.preHeld.unrealizedUsd) },
    total: figures(summary.total),
    notes: summary.notes,
  };
}
