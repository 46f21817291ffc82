/**
 * The prices what remains is valued at, one rule for `jupbot audit pnl`, `jupbot backtest` and the
 * report: each token's newest price the daemon kept (`price_samples`, by the start of its sampling
 * interval) before the end, else the last dollar price a fill before the end shows. The end is
 * `--until` when given, else everything the database holds: a backtest's database ends where the
 * backtest did. A kept price is what the market said; a fill's is only the last trade jupbot made,
 * possibly long before.
 */
import type { Db } from '../store/db.js';
import { latestPriceSamples } from '../store/priceSamples.js';
import { ONE, parseFixedRounded } from '../money/decimal.js';
import { latestPrices, type Quote } from './pnl.js';
import type { Trade } from './trades.js';

/** `trades`: every strategy's, oldest first; only those before `before` count. */
export function closingPrices(db: Db, trades: readonly Trade[], before?: number): Map<string, Quote> {
  const prices = latestPrices(before === undefined ? trades : trades.filter((t) => t.at < before));
  for (const sample of latestPriceSamples(db, before)) {
    const usd = parseFixedRounded(sample.usd);
    if (usd !== undefined) prices.set(sample.mint, { usd, tokens: ONE, priceUsd: usd });
  }
  return prices;
}
