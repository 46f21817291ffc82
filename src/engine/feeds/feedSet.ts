/**
 * All the daemon's feeds in one place, built from `config.poll` and wired to metrics, outage alerts
 * and readiness. Order feeds exist only with an authed client (a wallet logged in to Trigger), the
 * positions feed only with a wallet. The balances feed reads the chain through the RPC (live, paper)
 * or, in a rehearsal, its ledger: the source is an option, the feed is like every other.
 *
 * Every feed but the balances one (the RPC, or the ledger) reads one API area (`FEED_AREAS`);
 * `paused(area)` says why that area's feeds must not poll now (nothing loaded needs it, or the key
 * was refused it: engine/areas/), and they send nothing then.
 */
import type { ApiArea } from '../../jupiter/apiAreas.js';
import type { Clock } from '../../clock.js';
import type { AuthedJupiterClient, JupiterClient } from '../../jupiter/transport.js';
import type { Logger } from '../../ops/log.js';
import type { MeteredFeed } from '../../ops/metrics.js';
import type { ReadinessCheck } from '../../ops/opsServer.js';
import type { WatchedFeed } from '../../ops/outage.js';
import { createDcaOrdersFeed, createPriceOrdersFeed, type DcaHistoryItem, type OrderHistoryItem, type OrderSnapshot } from './orders.js';
import type { Poller } from './poller.js';
import { type Position, createPositionsFeed } from './positions.js';
import { createPricesFeed, type PriceMap } from './prices.js';
import { feedReadinessChecks, feedStatus } from './readiness.js';
import { createScoresFeed, type ScoreMap } from './scores.js';
import { createMarketsFeed, type MarketMap } from './markets.js';
import { createTradingStatusFeed } from './tradingStatus.js';
import { createBalancesFeed, type Balances } from './balances.js';
import { createLedgerBalancesFeed } from '../../rehearsal/ledgerBalancesFeed.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { Db } from '../../store/db.js';

/**
 * Where the wallet's balances are read: the chain, through the RPC (live and paper mode), or the
 * rehearsal ledger in the database (a rehearsal spends nothing of the real wallet's).
 */
export type BalancesSource = { readonly from: 'chain'; readonly rpc: SolanaRpc; readonly wallet: string } | { readonly from: 'ledger'; readonly db: Db };

export interface FeedSetOptions {
  readonly client: JupiterClient;
  /** The Trigger-authed client (the session's `withBearer`). Without it there are no order feeds. */
  readonly authed?: AuthedJupiterClient | (() => AuthedJupiterClient) | undefined;
  readonly clock: Clock;
  readonly log?: Logger | undefined;
  /** `config.poll` (milliseconds). */
  readonly poll: { readonly prices: number; readonly scores: number; readonly positions: number; readonly orders: number };
  /** The wallet whose prediction positions are polled. Without it there is no positions feed. */
  readonly wallet?: string | undefined;
  /** Mints in use (e.g. `() => mintInterest.keys()`). */
  readonly mints: () => Iterable<string>;
  /** Prediction event ids strategies name (`positions.event`): their markets and scores are polled. */
  readonly eventIds: () => Iterable<string>;
  /** Prediction market ids strategies name (`positions.market`); the markets of positions held are added. */
  readonly marketIds?: (() => Iterable<string>) | undefined;
  /** Where the balances feed reads, every `poll.prices`: a decision needs fresh balances as much as fresh prices. */
  readonly balances: BalancesSource;

  /** `metrics.attachFeed`, for feed ages and failures. */
  readonly metrics?: { attachFeed(feed: MeteredFeed): () => void } | undefined;
  /** `outages.watchFeed`, for "feed down" alerts. */
  readonly outages?: { watchFeed(feed: WatchedFeed): () => void } | undefined;
  /** Why the feeds of `area` must not poll now, else null. @default never paused */
  readonly paused?: ((area: ApiArea) => string | null) | undefined;
}

/** The API area each feed reads. */
export const FEED_AREAS: Readonly<Record<string, ApiArea>> = {
  prices: 'tokens',
  markets: 'prediction',
  scores: 'prediction',
  positions: 'prediction',
  'trading-status': 'prediction',
  orders: 'trigger',
  dca: 'trigger',
};

export interface FeedSet {
  readonly prices: Poller<PriceMap>;
  readonly scores: Poller<ScoreMap>;
  readonly positions: Poller<readonly Position[]> | null;
  readonly orders: Poller<OrderSnapshot<OrderHistoryItem>> | null;
  readonly dca: Poller<OrderSnapshot<DcaHistoryItem>> | null;
  readonly markets: Poller<MarketMap>;
  readonly tradingStatus: Poller<boolean>;
  readonly balances: Poller<Balances>;
  /** Every feed that exists, in a fixed order (balances last). */
  readonly all: readonly Poller<unknown>[];
  /** One `/readyz` check per feed (`feed:<name>`). */
  readiness(): ReadinessCheck[];
  /**
   * A JSON-safe summary per feed for `/status`, but the balances feed's: `/status` has always
   * shown that one apart, with how many mints it read (`balancesStatus`).
   */
  status(): Record<string, unknown>[];
  /** The balances feed's summary for `/status`: its state, and how many mints the last read found (null before one). */
  balancesStatus(): Record<string, unknown>;
  /** Starts every feed; they stop when `signal` aborts. */
  start(signal: AbortSignal): void;
  /** Paused feeds look at once whether they may poll again (a strategy was loaded, an area answers again). */
  recheck(): void;
  /** Settles once every started feed has stopped. */
  readonly done: Promise<void>;
}

export function createFeedSet(options: FeedSetOptions): FeedSet {
  const { client, authed, clock, log, poll } = options;
  const gate = (area: ApiArea): (() => string | null) | undefined => {
    const paused = options.paused;
    return paused && (() => paused(area));
  };
  const tokens = gate('tokens');
  const prediction = gate('prediction');
  const trigger = gate('trigger');
  const prices = createPricesFeed({ client, clock, log, intervalMs: poll.prices, mints: options.mints, paused: tokens });
  const positions =
    options.wallet === undefined ? null : createPositionsFeed({ client, clock, log, intervalMs: poll.positions, wallet: options.wallet, paused: prediction });
  // Markets of what is held and what strategies name; scores of their events. Both follow the games (poll.scores).
  const marketIds = (): Set<string> => new Set([...(options.marketIds?.() ?? []), ...(positions?.state().value ?? []).map((p) => p.marketId)]);
  const markets = createMarketsFeed({ client, clock, log, intervalMs: poll.scores, marketIds, eventIds: options.eventIds, paused: prediction });
  const scoreEvents = (): Set<string> => {
    const events = new Set(options.eventIds());
    const known = markets.state().value;
    if (known)
      for (const id of marketIds()) {
        const eventId = known.get(id)?.eventId;
        if (eventId) events.add(eventId);
      }
    return events;
  };
  const scores = createScoresFeed({ client, clock, log, intervalMs: poll.scores, eventIds: scoreEvents, paused: prediction });
  const tradingStatus = createTradingStatusFeed({ client, clock, log, intervalMs: poll.scores, paused: prediction });
  const orders = authed === undefined ? null : createPriceOrdersFeed({ client: authed, clock, log, intervalMs: poll.orders, paused: trigger });
  const dca = authed === undefined ? null : createDcaOrdersFeed({ client: authed, clock, log, intervalMs: poll.orders, paused: trigger });
  const source = options.balances;
  const balances =
    source.from === 'chain'
      ? createBalancesFeed({ rpc: source.rpc, clock, wallet: source.wallet, intervalMs: poll.prices, log })
      : createLedgerBalancesFeed({ db: source.db, clock, intervalMs: poll.prices, log });
  const all = [prices, markets, scores, positions, tradingStatus, orders, dca, balances].filter(
    (f): f is NonNullable<typeof f> => f !== null,
  ) as readonly Poller<unknown>[];
  for (const feed of all) {
    options.metrics?.attachFeed(feed);
    options.outages?.watchFeed(feed);
  }
  let started = false;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  return {
    prices,
    scores,
    positions,
    orders,
    dca,
    markets,
    tradingStatus,
    balances,
    all,
    readiness: () => feedReadinessChecks(all),
    status: () => feedStatus(all.filter((feed) => feed !== balances)),
    balancesStatus: () => {
      const { value, ...feed } = balances.state();
      return { ...feed, mints: value?.byMint.size ?? null };
    },
    start(signal) {
      if (started) throw new Error('feeds already started');
      started = true;
      for (const feed of all) feed.start(signal);
      void Promise.all(all.map((f) => f.done)).then(() => resolveDone());
    },
    recheck() {
      for (const feed of all) feed.recheck();
    },
    done,
  };
}
