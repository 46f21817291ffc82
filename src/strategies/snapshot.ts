import type { Fixed } from '../money/decimal.js';

/**
 * What the engine's feeds last saw, gathered once per tick and shared by every strategy's
 * decide(). Prices are exact ({@link Fixed} USD), converted once by the feed, not per strategy.
 */
export interface PriceQuote {
  readonly usd: Fixed;
  /** When the price was observed (epoch ms). */
  readonly at: number;
}

/**
 * A Trigger V2 order the executor placed for a strategy, as last polled. A placement journaled but
 * not yet visible in the order history appears here too, in state `pending`: the rule then counts
 * as armed, so neither a slow API nor a hot reload can make decide() place it twice.
 */
export interface VaultOrderView {
  readonly id: string;
  /** The rule that placed it (recorded in the intent journal). */
  readonly rule: string;
  readonly family: 'price' | 'dca';
  readonly orderType: 'single' | 'oco' | 'otoco' | 'time_based' | 'price_conditional';
  /** Normalised state: pending, open, executing, filled, cancelled, expired, failed… */
  readonly state: string;
  readonly expiresAt: number | null;
  readonly triggerPriceUsd: Fixed | null;
  readonly trailingBps: number | null;
  readonly inputAmount: bigint;
  /** The slippage we last gave the order and its legs; absent when not known (a placement not yet mirrored, a DCA order). */
  readonly slippage?: OrderSlippage;
}

/**
 * Slippage (bps) as the daemon last set it on an order: its placement's, then any PATCH's since;
 * null where it never set one, which Trigger V2 fills with its own default.
 */
export interface OrderSlippage {
  readonly slippageBps: number | null;
  readonly tpSlippageBps: number | null;
  readonly slSlippageBps: number | null;
}

export interface PositionView {
  readonly pubkey: string;
  readonly marketId: string;
  readonly isYes: boolean;
  readonly contractsMicro: bigint;
  /** What one contract would sell for now, micro-USD; null when the market has no bid. */
  readonly sellPriceMicroUsd: bigint | null;
  readonly claimable: boolean;
  readonly claimed: boolean;
}

export interface MarketView {
  readonly marketId: string;
  readonly eventId: string;
  readonly status: 'open' | 'closed' | 'cancelled';
  /** Epoch ms. */
  readonly closeTime: number;
  readonly result: 'yes' | 'no' | null;
}

/**
 * A live score as the rules compare it. The API's period and elapsed strings are read for the game's
 * sport (engine/tick/readGameClock.ts; docs/strategies.md, "Live scores"): "2H", "Q4", "P3", "OT",
 * "HT"… as the period's number in the sport's count, the clock as time played in the current period.
 */
export interface ScoreView {
  readonly eventId: string;
  readonly home: number;
  readonly away: number;
  /** Period number in the sport's count (overtime continues it); null before the game or when unreadable. */
  readonly period: number | null;
  /** Time played in the current period, ms; null when not given or unreadable. */
  readonly elapsedMs: number | null;
  readonly live: boolean;
  /** The sport the clock was read for, and what named it (`NBA (league "nba")`); null when unknown. */
  readonly sport?: string | null;
  /** The API's own strings, kept for the evidence of what fired. */
  readonly periodText?: string | null;
  readonly elapsedText?: string | null;
  /** Why `period` is null while the game is live (the value, and what was expected); absent when it read. */
  readonly periodProblem?: string | undefined;
  /** Why `elapsedMs` is null while the game is live; absent when it read. */
  readonly elapsedProblem?: string | undefined;
}

export interface Snapshot {
  readonly prices: ReadonlyMap<string, PriceQuote>;
  /** Wallet balances in base units, by mint. */
  readonly balances: ReadonlyMap<string, bigint>;
  /** Live and recent vault orders, by strategy name. */
  readonly vaultOrders: ReadonlyMap<string, readonly VaultOrderView[]>;
  readonly positions: readonly PositionView[];
  readonly markets: ReadonlyMap<string, MarketView>;
  /**
   * Market and event ids the prediction API answered "not found" for (strategies' `positions.market`
   * and `positions.event`): a strategy naming one waits with "market unknown". Absent: none known.
   */
  readonly unknownMarkets?: ReadonlySet<string>;
  readonly unknownEvents?: ReadonlySet<string>;
  /** By event id. */
  readonly scores: ReadonlyMap<string, ScoreView>;
  /** `/prediction/v1/trading-status`; null when not polled yet. */
  readonly tradingActive: boolean | null;
  /** Price impact of a fresh quote, bps, by `inputMint>outputMint`: the DCA guard reads it. */
  readonly priceImpactBps: ReadonlyMap<string, number>;
}

/** What the engine and store know of one strategy's progress. All optional: a new strategy has none. */
export interface StrategyState {
  /** Arming cycle: 0 first, +1 each time `rearm` arms again after every exit filled. */
  readonly generation?: number;
  /** Base units of the sold token covered at arming (for shares like "25%"). */
  readonly armedAmount?: bigint;
  /** Reference for relative levels ("+20%"): entry or price at arming. */
  readonly referencePriceUsd?: Fixed;
  /** Rules whose order filled in this generation. */
  readonly filledRules?: ReadonlySet<string>;
  /** Highest price seen since arming (local trailing stop and ratchet). */
  readonly peakPriceUsd?: Fixed;
  /** When the strategy first ran: a schedule counts runs from here when none ran yet. */
  readonly startedAt?: number;
  /** DCA: the last scheduled instant accounted for (see Decision.scheduledThrough). */
  readonly lastScheduledRun?: number;
  /** Highest sell price seen per position, micro-USD (trailing from peak). */
  readonly positionPeaks?: ReadonlyMap<string, bigint>;
  /** Notional already used on a UTC day. */
  readonly notional?: { readonly day: number; readonly usedUsd: Fixed };
  /**
   * Slots (`rule/trigger`, see intentSlot) of intents journaled and not failed, whatever the
   * strategy version they were decided under: decide does not ask for them again.
   */
  readonly handled?: ReadonlySet<string>;
}

/** A price older than this is not acted on. */
export const STALE_PRICE_MS = 120_000;

export const DAY_MS = 86_400_000;

/** A vault order still holding funds and able to fill. */
export function isLive(order: VaultOrderView): boolean {
  return order.state === 'pending' || order.state === 'open' || order.state === 'active' || order.state === 'executing';
}
