import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { searchTokens } from '../jupiter/tokens.js';
import { createJupiterClient, type JupiterClient } from '../jupiter/transport.js';
import { createTriggerSession, type TriggerSession } from '../jupiter/session.js';
import type { Logger } from '../ops/log.js';
import { auditFeed } from '../ops/feedAudit.js';
import type { Metrics } from '../ops/metrics.js';
import type { ReadinessCheck } from '../ops/opsServer.js';
import type { OutageMonitor } from '../ops/outage.js';
import type { Redactor } from '../ops/redact.js';
import type { Random } from '../random.js';
import { createVenueBook } from '../solana/venueBook.js';
import { createRpcGuardedSigner, createRpcTransactionGuard } from '../solana/guardedSigner.js';
import { createSolanaRpc, type SolanaRpc } from '../solana/rpc.js';
import type { Wallet } from '../solana/wallet.js';
import { WatchOnlyWallet } from '../solana/watchOnlyWallet.js';
import { openLedger } from '../rehearsal/openLedger.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { StrategyVersions } from '../store/strategyVersions.js';
import { TokenPins } from '../store/tokenPins.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import { cachedSearch } from './cachedSearch.js';
import { createFeedSet, type FeedSet } from './feeds/feedSet.js';
import { StrategyWatcher } from './strategyWatcher.js';
import { feedReadinessChecks } from './feeds/readiness.js';
import type { Poller } from './feeds/poller.js';
import { jupiterPrograms } from './sharing/foreignTransaction.js';
import { OrderArrivals } from './sharing/orderArrivals.js';
import { createWalletHistoryFeed, type WalletHistoryRead } from './sharing/walletHistory.js';
import { createWalletSharing } from './sharing/walletSharing.js';
import { startTrading, type Trading } from './trading.js';
import type { WalletError } from '../solana/walletError.js';
import { strategyLimits } from '../strategies/strategyLimits.js';
import { createEngineAreas, type EngineAreas } from './areas/engineAreas.js';

export interface EngineOptions {
  readonly config: Config;
  readonly clock: Clock;
  readonly random: Random;
  readonly log: Logger;
  readonly redactor: Redactor;
  readonly db: Db;
  readonly audit: AuditLog;
  readonly metrics: Metrics;
  readonly outages: OutageMonitor;
  /**
   * The wallet, loaded (with every check, its secret registered for scrubbing) and locked by the
   * daemon; in rehearsal mode the watched address alone, which cannot sign.
   */
  readonly wallet: Wallet | WatchOnlyWallet;
  /** The data directory's instance id (store/instanceId.ts), named in what the wallet watch reports. */
  readonly instanceId: string;
  /**
   * Someone else trades the wallet (engine/sharing/walletSharing.ts): new intents have already been
   * refused; the daemon stops and ends with `error`. `summary` names the evidence in a few words.
   */
  readonly onWalletShared?: ((error: WalletError, summary: string) => void) | undefined;
  /** Watch the wallet's history for trades this daemon did not make (unless `wallet.shared`). A backtest does not. @default true */
  readonly watchWallet?: boolean | undefined;
  /** The Jupiter API root: the simulator's in paper mode, `api.base_url` in live mode. */
  readonly apiBaseUrl: string;
  readonly apiKey?: string | undefined;
  /**
   * Called with the wallet's address once it is loaded, before anything polls or trades. Paper mode
   * funds the wallet in its freshly started simulated world here.
   */
  readonly onWallet?: ((address: string) => void) | undefined;
  /** The Solana RPC (tests inject one); by default the simulator's in paper mode, `rpc.url` live. */
  readonly rpc?: SolanaRpc | undefined;
  /** How the Jupiter client and the RPC reach their servers (a backtest answers in process). @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/** What runs between the daemon's start and stop: the strategies, the wallet's login and the feeds. */
export interface Engine {
  readonly wallet: string;
  readonly client: JupiterClient;
  /** The Trigger V2 login; null in a rehearsal, which holds no key to log in with. */
  readonly session: TriggerSession | null;
  readonly strategies: StrategyWatcher;
  readonly feeds: FeedSet;
  /** The API areas: what the strategies need, what the key may use (engine/areas/). */
  readonly areas: EngineAreas;
  /** The journal, executor, balances, reconciliation and the decide loop. */
  readonly trading: Trading;
  /** The wallet's transactions, judged for trades this daemon did not make; null with `wallet.shared: true`. */
  readonly walletHistory: Poller<WalletHistoryRead> | null;
  /** JSON-safe state for `/status`. */
  status(): Record<string, unknown>;
  /** Checks for `/readyz`: every feed fresh (or paused), the Trigger login not failing (or not needed), no other trader on the wallet. */
  readiness(): ReadinessCheck[];
  /** Stops polling and watching; waits for work in hand. */
  stop(): Promise<void>;
}

/** Every mint a running strategy trades, for the prices feed (deduplicated by the feed's batching). */
function mintsInUse(strategies: ReadonlyMap<string, LoadedStrategy>): string[] {
  const mints = new Set<string>();
  for (const strategy of strategies.values()) {
    for (const token of Object.values(strategy.tokens)) if (token) mints.add(token.mint);
  }
  return [...mints].sort();
}

/** Prediction markets running strategies name (the markets of positions held are polled too). */
function marketsInUse(strategies: ReadonlyMap<string, LoadedStrategy>): string[] {
  const markets = new Set<string>();
  for (const { spec } of strategies.values()) {
    if (spec.kind === 'prediction-exit' && spec.positions.market !== undefined) markets.add(spec.positions.market);
  }
  return [...markets].sort();
}

/** Prediction events whose scores a running strategy's rules read. */
function eventsInUse(strategies: ReadonlyMap<string, LoadedStrategy>): string[] {
  const events = new Set<string>();
  for (const { spec } of strategies.values()) {
    if (spec.kind === 'prediction-exit' && spec.positions.event !== undefined) events.add(spec.positions.event);
  }
  return [...events].sort();
}

/**
 * Builds and starts the engine's long-running parts on one rate-limited Jupiter client, for the
 * wallet the daemon loaded and locked: the guarded signer, the Trigger session, the strategy
 * watcher (hot reload, versions and pins in the database) and the feeds for what those strategies
 * need, then trading (trading.ts): reconciliation first, then the
 * decide loop, which executes swap intents and defers the kinds that have no handler yet.
 */
export async function startEngine(options: EngineOptions): Promise<Engine> {
  const { config, clock, random, log, redactor, db, audit, metrics, outages } = options;
  const startedAt = clock.now();
  const client = createJupiterClient({
    baseUrl: options.apiBaseUrl,
    apiKey: options.apiKey,
    requestsPerSecond: config.api.requests_per_second,
    clock,
    random,
    logger: log,
    redactor,
    timeoutMs: config.api.timeout,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const detachClient = metrics.attachClient(client);
  const { wallet } = options;
  options.onWallet?.(wallet.address);
  // The simulator serves the RPC next to the APIs; live mode has its own node.
  const rpc =
    options.rpc ?? createSolanaRpc({ url: config.mode === 'paper' ? `${options.apiBaseUrl}/rpc` : config.rpc.url, clock, redactor, fetch: options.fetch });
  // Route venues newer than the bundled table, from the aggregator's on-chain IDL (read once now).
  const venues = createVenueBook({ rpc, clock, log, db });
  await venues.start();
  const guardOptions = {
    audit,
    log,
    rpc,
    clock,
    predictionPrograms: config.prediction.program_ids,
    platformFeeAccounts: config.guard.platform_fee_accounts,
    maxFeeBps: config.guard.max_fee_bps,
    venues,
  };
  // A rehearsal holds the guard alone: with no key, there is no signer and no Trigger login.
  const signing = wallet instanceof WatchOnlyWallet ? null : wallet;
  const signer = signing === null ? null : createRpcGuardedSigner({ ...guardOptions, wallet: signing });
  const session =
    signer === null
      ? null
      : createTriggerSession({
          client,
          signer,
          clock,
          random,
          refreshMarginMs: config.session.refresh_margin,
          log,
          redactor,
        });
  const search = cachedSearch((query) => searchTokens(client, { query }), clock);
  const strategies = new StrategyWatcher({
    dir: config.strategies_dir,
    clock,
    intervalMs: config.poll.strategies,
    search,
    limits: strategyLimits(config.guard),
    pins: new TokenPins(db),
    versions: new StrategyVersions(db),
    audit,
    log,
  });
  // Every answer of the client says whether the key may use its area; nothing is polled that no strategy needs.
  const areas = createEngineAreas({ client, clock, audit, log, db, wallet: wallet.address, strategies });
  const feeds = createFeedSet({
    client,
    authed: session?.authed,
    clock,
    log,
    poll: config.poll,
    wallet: wallet.address,
    mints: () => mintsInUse(strategies.active),
    eventIds: () => eventsInUse(strategies.active),
    marketIds: () => marketsInUse(strategies.active),
    metrics,
    outages,
    paused: (area) => areas.gate.feedPaused(area),
  });
  areas.onChange(() => feeds.recheck());

  for (const feed of feeds.all) auditFeed(feed, audit, clock);
  const abort = new AbortController();
  // The first scan completes before the feeds start, so their first poll already covers the strategies.
  await strategies.poll();
  if (strategies.active.size === 0) {
    // Most likely a wrong strategies_dir: say so rather than idle silently for weeks.
    log.warn({ dir: config.strategies_dir }, 'no valid strategy in strategies_dir: nothing will trade until one is added');
  }
  const watching = strategies.run(abort.signal);
  areas.start(abort.signal);
  feeds.start(abort.signal);
  const watchFeed = <T>(feed: Poller<T>): void => {
    const detach = [metrics.attachFeed(feed), outages.watchFeed(feed), auditFeed(feed, audit, clock)];
    void feed.done.then(() => detach.forEach((off) => off()));
  };
  // Someone else trading this wallet: a Trigger order created while we run, or Jupiter trades signed
  // with its key that the journal did not make (engine/sharing/). Once seen, the executor takes no
  // new intent (nothing can be decided before trading starts).
  let stopDeciding = (): void => undefined;
  const sharing = createWalletSharing({
    wallet: wallet.address,
    instanceId: options.instanceId,
    dataDir: config.data_dir,
    shared: config.wallet.shared,
    startedAt,
    audit,
    onStop(error, summary) {
      // Nothing new from this moment; the daemon's stop follows.
      stopDeciding();
      options.onWalletShared?.(error, summary);
    },
  });
  const arrivals = new OrderArrivals({ startedAt, onArrival: (order) => sharing.report({ kind: 'order', ...order }) });
  // The rehearsal ledger opens before anything decides: strategies see its balances from the first tick.
  if (signer === null) await openLedger({ db, audit, clock, log, rpc, wallet: wallet.address, declared: config.rehearsal.balances, search });
  const trading = startTrading({
    config,
    clock,
    log,
    db,
    audit,
    client,
    authed: session?.authed,
    execution: signer === null ? { rehearsal: createRpcTransactionGuard({ ...guardOptions, address: wallet.address }) } : { signer },
    wallet: wallet.address,
    rpc,
    strategies: () => strategies.active,
    feeds,
    arrivals,
    watchFeed,
    paused: { strategy: (s) => areas.gate.strategyPaused(s), vaultOrders: () => areas.gate.areaOff('trigger') },
  });
  stopDeciding = () => trading.executor.stop();
  // A rehearsal trades nothing: whoever else trades the wallet is none of its business.
  const walletHistory =
    config.wallet.shared || options.watchWallet === false || signer === null
      ? null
      : createWalletHistoryFeed({
          rpc,
          db,
          clock,
          wallet: wallet.address,
          programs: jupiterPrograms(config.prediction.program_ids),
          intervalMs: config.poll.orders,
          log,
          onForeign: (transaction) => sharing.report({ kind: 'transaction', ...transaction }),
        });
  if (walletHistory) {
    watchFeed(walletHistory);
    walletHistory.start(abort.signal);
  }
  log.debug({ wallet: wallet.address, strategies: [...strategies.active.keys()] }, 'engine started');

  return {
    wallet: wallet.address,
    client,
    session,
    strategies,
    feeds,
    areas,
    trading,
    walletHistory,
    status: () => ({
      wallet: wallet.address,
      areas: areas.status(),
      session: session?.health() ?? null,
      strategies: [...strategies.active.values()].map((s) => ({ name: s.name, kind: s.spec.kind, file: s.file, hash: s.hash })),
      feeds: feeds.status(),
      trading: trading.status(),
    }),
    readiness: () => [
      ...feeds.readiness(),
      // Decisions need fresh balances as much as fresh prices: a stale balance holds every strategy.
      ...feedReadinessChecks(walletHistory ? [trading.balances, walletHistory] : [trading.balances]),
      {
        // A strategy whose decision keeps failing (a stop that cannot sell) is not ready, and says which and why.
        name: 'strategies',
        probe: () => {
          const degraded = Object.entries(trading.ticks.status().strategies).filter(([, h]) => h.degraded !== null);
          if (degraded.length === 0) return { ok: true };
          return {
            ok: false,
            detail: degraded
              .map(
                ([name, h]) =>
                  `${name}: rule ${h.degraded?.rule ?? '?'} failed ${h.degraded?.failures ?? 0} times in a row (${h.degraded?.code ?? 'no code'})${h.degraded?.protective ? ', still trying' : ''}`,
              )
              .join('; '),
          };
        },
      },
      areas.gate.readiness(),
      {
        name: 'trigger-login',
        probe: () => {
          // No vault strategy, or a key without Trigger: the login is not attempted, and not waited for.
          if (session === null) return { ok: true, detail: 'not attempted: a rehearsal holds no key to log in with' };
          const paused = areas.gate.feedPaused('trigger');
          if (paused !== null) return { ok: true, detail: `not attempted: ${paused}` };
          const health = session.health();
          return health.consecutiveFailures === 0
            ? { ok: true }
            : { ok: false, detail: `${health.consecutiveFailures} failed login(s): ${health.lastError?.message ?? 'unknown'}` };
        },
      },
      sharing.readiness(),
    ],
    async stop() {
      // Trading first: no new call starts while the feeds it decides on are still there.
      await trading.stop();
      abort.abort(new Error('engine stopping'));
      await Promise.allSettled([watching, feeds.done, walletHistory?.done, areas.done()]);
      areas.close();
      detachClient();
      client.close();
    },
  };
}
