/**
 * What `/status` reads from memory at each request, beside the figures it reads from the database
 * every few seconds: the wallet's balances with their dollar value, the prices the open orders'
 * distances are measured from, and which clock every time in the document is on.
 */
import { type Clock, realTimeOf } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Balances } from '../engine/feeds/balances.js';
import type { FeedState } from '../engine/feeds/poller.js';
import type { PriceMap } from '../engine/feeds/prices.js';
import { type TokenNamer, USD_MINTS } from '../audit/tokenNames.js';
import type { PriceOf } from '../audit/statusOrders.js';
import { decimalTextOf, type Fixed, formatFixed, mulFixed, ONE, parseFixedRounded, unitsToFixed } from '../money/decimal.js';

/** The running daemon's feeds and names, as `/status` reads them. */
export interface StatusMarket {
  readonly prices: () => FeedState<PriceMap>;
  readonly balances: () => FeedState<Balances>;
  readonly tokenName: TokenNamer;
}

export interface BalancesJson {
  /** When the balances were read (null before a first read). */
  readonly readAt: number | null;
  readonly tokens: readonly {
    readonly mint: string;
    readonly symbol: string;
    readonly amount: string;
    readonly priceUsd: string | null;
    readonly valueUsd: string | null;
  }[];
  /** Sum over the tokens with a price. */
  readonly totalUsd: string;
  /** Symbols of tokens without a price: not in the total. */
  readonly unpriced: readonly string[];
}

export interface ClockJson {
  /** The daemon's time now: every time in the document is on this clock, in epoch ms (shown in UTC). */
  readonly now: number;
  /** `simulated`: the paper world's clock, which may run faster than, or ahead of, the wall clock. */
  readonly kind: 'simulated' | 'wall';
  /** How many times faster than real time (1 unless paper mode's sim.speed says otherwise). */
  readonly speed: number;
  /** The wall clock now, for comparison. */
  readonly wallNow: number;
}

/** A price as `/status` measures from: exact dollars, and when the feed read it. */
export interface LivePrice {
  readonly usd: Fixed;
  readonly at: number | null;
}

/** The price feed's latest prices as exact dollars, with when they were read. */
export function livePrices(feed: FeedState<PriceMap>): Map<string, LivePrice> {
  const out = new Map<string, LivePrice>();
  for (const [mint, price] of feed.value ?? []) {
    const text = decimalTextOf(price.usdPrice);
    const usd = text === null ? undefined : parseFixedRounded(text);
    if (usd !== undefined && usd > 0n) out.set(mint, { usd, at: feed.at });
  }
  return out;
}

/** A dollar token is exactly $1; any other is the feed's price, or none. */
export function priceOfLive(prices: ReadonlyMap<string, LivePrice>): PriceOf {
  return (mint) => (USD_MINTS.has(mint) ? { usd: ONE, at: null } : (prices.get(mint) ?? null));
}

export function statusBalances(feed: FeedState<Balances>, priceOf: PriceOf, name: TokenNamer): BalancesJson {
  const read = feed.value;
  const tokens = [...(read?.byMint ?? [])]
    .filter(([, units]) => units > 0n)
    .map(([mint, units]) => {
      const amount = unitsToFixed(units, read?.decimals.get(mint) ?? 0);
      const price = priceOf(mint);
      return {
        mint,
        symbol: name(mint),
        amount: formatFixed(amount),
        priceUsd: price === null ? null : formatFixed(price.usd),
        valueUsd: price === null ? null : formatFixed(mulFixed(amount, price.usd)),
      };
    })
    .sort((a, b) => a.symbol.localeCompare(b.symbol));
  return {
    readAt: read?.readAt ?? null,
    tokens,
    totalUsd: formatFixed(tokens.reduce((sum, t) => sum + (t.valueUsd === null ? 0n : (parseFixedRounded(t.valueUsd) ?? 0n)), 0n)),
    unpriced: tokens.filter((t) => t.valueUsd === null).map((t) => t.symbol),
  };
}

export function statusClock(mode: Config['mode'], clock: Clock): ClockJson {
  const real = realTimeOf(clock);
  return {
    now: clock.now(),
    kind: mode === 'paper' ? 'simulated' : 'wall',
    speed: 'speed' in clock && typeof clock.speed === 'number' ? clock.speed : 1,
    wallNow: real === clock ? clock.now() : real.now(),
  };
}
