/**
 * The strategies' Snapshot from what the feeds last saw. Nothing is guessed: a price the feed never
 * returned is absent (decide() holds "no price yet"), a price carries the time the feed last read it
 * (decide() holds once it is older than STALE_PRICE_MS), and without fresh wallet balances there is
 * no snapshot at all, because every decision sizes its order from them (a missing balance would read
 * as 0 or, worse, a stale one as still there).
 */
import type { Position } from '../../jupiter/schemas/prediction.js';
import type { TokenPrice } from '../../jupiter/tokens.js';
import { parseFixed, type Fixed } from '../../money/decimal.js';
import type { PositionView, PriceQuote, Snapshot, VaultOrderView } from '../../strategies/snapshot.js';
import type { MarketMap } from '../feeds/markets.js';
import type { ScoreMap } from '../feeds/scores.js';
import { marketViews, scoreViews } from './predictionViews.js';
import type { Balances } from '../feeds/balances.js';
import type { FeedState } from '../feeds/poller.js';

export interface SnapshotSources {
  readonly prices: FeedState<ReadonlyMap<string, TokenPrice>>;
  readonly balances: FeedState<Balances>;
  readonly positions?: FeedState<readonly Position[]> | undefined;
  /** Our live and pending vault orders by strategy (vaultOrderViews.ts). */
  readonly vaultOrders?: ReadonlyMap<string, readonly VaultOrderView[]> | undefined;
  /** Prediction markets, as last polled. */
  readonly markets?: FeedState<MarketMap> | undefined;
  /** Live scores, as last polled. */
  readonly scores?: FeedState<ScoreMap> | undefined;
  /** `/prediction/v1/trading-status`. */
  readonly tradingStatus?: FeedState<boolean> | undefined;
}

export type SnapshotResult = { readonly ok: true; readonly snapshot: Snapshot } | { readonly ok: false; readonly reason: string };

const EMPTY_MAP = new Map<never, never>();
const EMPTY_SET: ReadonlySet<string> = new Set<string>();

/**
 * `readsBefore`: the balances polls begun before the last action that may have moved them (what the
 * feed's `pollSoon()` returned then). Balances read by one of those do not count — after a swap, the
 * balances must be read again before anything else is decided on them. Poll numbers, not times: a
 * read may begin in the same millisecond an action ended and still miss it.
 */
export function buildSnapshot(sources: SnapshotSources, readsBefore = 0): SnapshotResult {
  const { balances } = sources;
  if (balances.value === undefined || balances.at === null) return { ok: false, reason: 'wallet balances not read yet' };
  if (!balances.fresh) return { ok: false, reason: `wallet balances are stale (${Math.round((balances.ageMs ?? 0) / 1000)}s old)` };
  if ((balances.readNo ?? 0) <= readsBefore) return { ok: false, reason: 'wallet balances not read again since the last swap' };
  return {
    ok: true,
    snapshot: {
      prices: priceQuotes(sources.prices),
      balances: balances.value.byMint,
      vaultOrders: sources.vaultOrders ?? EMPTY_MAP,
      positions: (sources.positions?.value ?? []).map(positionView).filter((p): p is PositionView => p !== null),
      // Absent markets: decide() manages no position it cannot place in a market (it holds).
      markets: marketViews(sources.markets?.value),
      // Ids the API does not know: a strategy naming one waits visibly ("market unknown").
      unknownMarkets: sources.markets?.value?.unknownMarkets ?? EMPTY_SET,
      unknownEvents: sources.markets?.value?.unknownEvents ?? EMPTY_SET,
      // decide() has no age for a score: a stale one is absent (score rules hold) rather than acted on.
      scores: sources.scores?.fresh === true ? scoreViews(sources.scores.value) : EMPTY_MAP,
      // Not fresh: unknown, and prediction sells that require trading to be active hold.
      tradingActive: sources.tradingStatus?.fresh === true ? (sources.tradingStatus.value ?? null) : null,
      // No fresh quote here: the executor enforces maxPriceImpactBps on the quote it signs.
      priceImpactBps: EMPTY_MAP,
    },
  };
}

function priceQuotes(feed: FeedState<ReadonlyMap<string, TokenPrice>>): Map<string, PriceQuote> {
  const out = new Map<string, PriceQuote>();
  if (feed.value === undefined || feed.at === null) return out;
  for (const [mint, price] of feed.value) {
    const usd = usdFixed(price.usdPrice);
    // Stamped with the poll that read it: a failing feed keeps its value, and its age grows.
    if (usd !== undefined) out.set(mint, { usd, at: feed.at });
  }
  return out;
}

/** The API's float price as Fixed; undefined (absent: decide holds) when missing or not a sane positive number. */
export function usdFixed(value: number | null): Fixed | undefined {
  if (value === null || !Number.isFinite(value) || value <= 0 || value >= 1e21) return undefined;
  const fixed = parseFixed(value.toFixed(18));
  return fixed === undefined || fixed === 0n ? undefined : fixed;
}

function positionView(p: Position): PositionView | null {
  if (p.contractsMicro === null || p.contractsMicro === undefined) return null;
  return {
    pubkey: p.pubkey,
    marketId: p.marketId,
    isYes: p.isYes,
    contractsMicro: BigInt(p.contractsMicro),
    sellPriceMicroUsd: p.sellPriceUsd === null || p.sellPriceUsd === undefined ? null : BigInt(p.sellPriceUsd),
    claimable: p.claimable === true,
    claimed: p.claimed === true,
  };
}
