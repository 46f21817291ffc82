/**
 * Unrealized P&L as `/status` shows it, on the same basis as `jupbot audit pnl` (databasePnl.ts):
 * what each strategy still holds of what it bought, at the cost of its lots (first in, first out,
 * fees included), and the units the wallet held before jupbot that no trade took, at their recorded
 * basis (`basis.set`, the operator's, else `basis.observed`, the first price the daemon saw). Each
 * holding is valued at the price feed's latest price when it has one, else at the closing price
 * (the newest kept price, else the last fill's). A holding with neither stays unvalued and is left
 * out of the total, named in `unpriced`.
 */
import { type Fixed, formatFixed, ONE, unitsToFixed } from '../money/decimal.js';
import type { Db } from '../store/db.js';
import { closingPrices } from './closingPrices.js';
import { preHeldLots } from './heldBefore.js';
import { computePnl, type Holding, type Quote } from './pnl.js';
import { sharedPool } from './preHeldPool.js';
import type { TokenNamer } from './tokenNames.js';
import type { Trade } from './trades.js';

/** The basis in words, for the JSON's readers and the CLI alike. */
export const UNREALIZED_BASIS =
  "cost of what each strategy holds (first in, first out, fees included) and of the wallet's units held before jupbot at their recorded basis (the operator's basis.set, else the first price the daemon saw), against the price feed's latest price (else the last kept price or fill)";

export interface UnrealizedHoldingJson {
  /** The strategy holding it; null for fills of adopted orders and for units held before jupbot. */
  readonly strategy: string | null;
  readonly preHeld: boolean;
  readonly mint: string;
  readonly symbol: string;
  readonly amount: string;
  readonly costUsd: string;
  /** The units held before jupbot: where their cost comes from. */
  readonly basis: { readonly source: 'first-price' | 'operator'; readonly priceUsd: string; readonly at: number } | null;
  readonly priceUsd: string | null;
  readonly priceFrom: 'feed' | 'history' | null;
  readonly valueUsd: string | null;
  readonly unrealizedUsd: string | null;
}

export interface UnrealizedJson {
  readonly basis: string;
  /** When the figures were computed (the daemon's clock). */
  readonly at: number;
  /** Sum over the valued holdings. */
  readonly usd: string;
  /** Symbols of holdings without any price: not in `usd`. */
  readonly unpriced: readonly string[];
  readonly holdings: readonly UnrealizedHoldingJson[];
}

/** `live`: the price feed's latest dollar price per mint (exact), preferred over history. */
export function unrealizedFigures(db: Db, trades: readonly Trade[], name: TokenNamer, live: ReadonlyMap<string, Fixed>, at: number): UnrealizedJson {
  const prices: Map<string, Quote> = closingPrices(db, trades);
  for (const [mint, usd] of live) prices.set(mint, { usd, tokens: ONE, priceUsd: usd });
  const report = computePnl(trades, prices, undefined, undefined, sharedPool(preHeldLots(db, name)));
  const holdings: UnrealizedHoldingJson[] = [
    ...report.strategies.flatMap((s) => s.holdings.map((h) => holdingJson(h, s.strategy, false, live))),
    ...report.preHeld.holdings.map((h) => holdingJson(h, null, true, live)),
  ];
  const valued = [...report.strategies.flatMap((s) => s.holdings), ...report.preHeld.holdings];
  return {
    basis: UNREALIZED_BASIS,
    at,
    usd: formatFixed(valued.reduce((sum, h) => sum + (h.unrealizedUsd ?? 0n), 0n)),
    unpriced: valued.filter((h) => h.unrealizedUsd === null).map((h) => h.symbol),
    holdings,
  };
}

function holdingJson(h: Holding, strategy: string | null, preHeld: boolean, live: ReadonlyMap<string, Fixed>): UnrealizedHoldingJson {
  const text = (value: Fixed | null): string | null => (value === null ? null : formatFixed(value));
  return {
    strategy,
    preHeld,
    mint: h.mint,
    symbol: h.symbol,
    amount: formatFixed(unitsToFixed(h.units, h.decimals)),
    costUsd: formatFixed(h.costUsd),
    basis: h.basis === null ? null : { source: h.basis.source, priceUsd: formatFixed(h.basis.priceUsd), at: h.basis.at },
    priceUsd: text(h.priceUsd),
    priceFrom: h.priceUsd === null ? null : live.has(h.mint) ? 'feed' : 'history',
    valueUsd: text(h.valueUsd),
    unrealizedUsd: text(h.unrealizedUsd),
  };
}
