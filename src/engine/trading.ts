/**
 * The part of the engine that moves money: the intent journal, the wallet balances feed, the
 * executor with every intent kind (executor/kindSet.ts), the vault orders' mirror (engine/mirror/),
 * reconciliation (a first pass before anything new, then periodic) and the decide loop. engine.ts is
 * the daemon's one composition root: it builds the clients, the feeds and the strategies, then this.
 * Everything with an outside world is passed in (the Jupiter clients, the RPC, the signer, the
 * feeds), so the end-to-end tests build this very function over the in-process simulator.
 *
 * Intervals reuse `config.poll` rather than adding keys: balances and ticks follow `poll.prices`
 * (a decision needs both fresh), reconciliation follows `poll.orders` (it polls the state of what
 * was sent). A planned intent older than STALE_PRICE_MS when reconciliation finds it is cancelled:
 * the price it was decided on is gone.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { AuthedJupiterClient, JupiterClient } from '../jupiter/transport.js';
import type { Logger } from '../ops/log.js';
import type { GuardedSigner, TransactionGuard } from '../solana/guardedSigner.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { Journal } from '../store/journal.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import { STALE_PRICE_MS } from '../strategies/snapshot.js';
import { createExecutor, type Executor } from './executor/executor.js';
import { decimalsResolver } from './decimalsResolver.js';
import { createHandlerSet } from './executor/kindSet.js';
import { startDcaOrderSync } from './mirror/dcaOrderSync.js';
import { startVaultOrderSync } from './mirror/orderSync.js';
import { TriggerOrders } from '../store/triggerOrders.js';
import { createBalancesFeed } from './feeds/balances.js';
import type { FeedSet } from './feeds/feedSet.js';
import type { Poller } from './feeds/poller.js';
import type { Balances } from './feeds/balances.js';
import { recordPriceHistory } from './priceHistory.js';
import { recordObservedBasis } from './recordObservedBasis.js';
import { recordWalletBalances } from './recordWalletBalances.js';
import type { OrderArrivals } from './sharing/orderArrivals.js';
import { startReconcileLoop } from './reconcile.js';
import { startTickLoop, type TickLoop, type TickLoopOptions } from './tick/tickLoop.js';
import { decisionRecords } from './tick/decisionRecords.js';
import { reportUnknownPredictionIds } from './unknownPredictionIds.js';
import { vaultOrderViews } from './tick/vaultOrderViews.js';
import { strategyLimits } from '../strategies/strategyLimits.js';
import { createRehearsalHandlerSet } from '../rehearsal/rehearsalKindSet.js';
import { createLedgerBalancesFeed } from '../rehearsal/ledgerBalancesFeed.js';
import { rehearsalPositions } from '../rehearsal/positionsOverlay.js';
import { startRehearsalOrders } from '../rehearsal/rehearsalOrders.js';

export interface TradingOptions {
  readonly config: Config;
  readonly clock: Clock;
  readonly log: Logger;
  readonly db: Db;
  readonly audit: AuditLog;
  readonly client: JupiterClient;
  /** The Trigger V2 session's client: with it, `place-vault-order` and price `cancel-vault-order` intents are executed (else deferred). */
  readonly authed?: AuthedJupiterClient | undefined;
  /**
   * How intents are carried out: signed through the guard (live, paper), or rehearsed: judged by the
   * guard alone and filled in the rehearsal ledger at the quotes received (src/rehearsal/).
   */
  readonly execution: { readonly signer: GuardedSigner } | { readonly rehearsal: TransactionGuard };
  readonly wallet: string;
  /** The node the executor sends through and the guard simulates with (the simulator's `<url>/rpc` in paper mode, `rpc.url` live). */
  readonly rpc: SolanaRpc;
  readonly strategies: () => ReadonlyMap<string, LoadedStrategy>;
  readonly feeds: FeedSet;
  /** Metrics and outage alerts for the balances feed, like the other feeds. */
  readonly watchFeed?: ((feed: Poller<Balances>) => void) | undefined;
  /** Adoption tells foreign orders there before the start from those created while we run (engine/sharing/). */
  readonly arrivals?: OrderArrivals | undefined;
  /** Strategies (and vault orders) that may not act now, because an API area they need is off (engine/areas/). */
  readonly paused?: TickLoopOptions['paused'];
}

export interface Trading {
  readonly journal: Journal;
  readonly rpc: SolanaRpc;
  readonly executor: Executor;
  readonly balances: Poller<Balances>;
  readonly ticks: TickLoop;
  status(): Record<string, unknown>;
  /** No new call is started; waits for the tick, the reconcile pass and the balances poll in hand. */
  stop(): Promise<void>;
}

export function startTrading(options: TradingOptions): Trading {
  const { config, clock, log, db, audit, client, feeds } = options;
  const journal = new Journal(db, audit, clock);
  const rpc = options.rpc;
  const { execution } = options;
  const rehearsal = 'rehearsal' in execution ? execution.rehearsal : null;
  // A rehearsal's balances are its ledger's; live and paper read the chain.
  const balances =
    rehearsal === null
      ? createBalancesFeed({ rpc, clock, wallet: options.wallet, intervalMs: config.poll.prices, log })
      : createLedgerBalancesFeed({ db, clock, intervalMs: config.poll.prices, log });
  options.watchFeed?.(balances);
  // For the audit: what the wallet holds, then the basis of what it held before jupbot (in this
  // order: a first reading is recorded before the basis looks for it).
  const stopWalletRecords = [recordWalletBalances({ feed: balances, db, audit, log }), recordObservedBasis({ prices: feeds.prices, balances, db, audit, log })];

  const decimalsOf = decimalsResolver({ strategies: options.strategies, prices: () => feeds.prices.state().value, client });
  const orders = new TriggerOrders(db, audit);
  const swapPolicy = { excludeRouters: config.api.exclude_routers, maxSlippageBps: config.guard.max_slippage_bps };
  const maxVaultSlippageBps = strategyLimits(config.guard).maxVaultSlippageBps;
  const set =
    'signer' in execution
      ? createHandlerSet({
          client,
          authed: options.authed,
          rpc,
          signer: execution.signer,
          journal,
          orders,
          clock,
          decimalsOf,
          swap: swapPolicy,
          maxVaultSlippageBps,
        })
      : createRehearsalHandlerSet({
          client,
          guard: execution.rehearsal,
          db,
          journal,
          orders,
          audit,
          clock,
          log,
          decimalsOf,
          swap: swapPolicy,
          maxVaultSlippageBps,
        });
  const executor = createExecutor({ journal, db, audit, rpc, clock, handlers: set.handlers, routes: set.routes, log });

  const abort = new AbortController();
  // The first tick waits for the first balances read (ok or failed): deciding before it would only skip.
  const firstBalances = Promise.race([balances.events.next('updated'), balances.events.next('failed'), balances.events.next('stopped')]);
  balances.start(abort.signal);
  const reconcile = startReconcileLoop({
    journal,
    executor,
    clock,
    audit,
    log,
    intervalMs: config.poll.orders,
    staleAfterMs: STALE_PRICE_MS,
    signal: abort.signal,
  });
  const ticks = startTickLoop({
    clock,
    executor,
    records: decisionRecords(db, audit, clock),
    log,
    strategies: options.strategies,
    sources: () => ({
      prices: feeds.prices.state(),
      balances: balances.state(),
      // A rehearsal's strategies see the positions it holds: the real ones less what it sold or claimed.
      positions: rehearsal === null ? feeds.positions?.state() : rehearsalPositions(db, feeds.positions?.state()),
      vaultOrders: vaultOrderViews(db),
      markets: feeds.markets.state(),
      scores: feeds.scores.state(),
      tradingStatus: feeds.tradingStatus.state(),
    }),
    refreshBalances: () => balances.pollSoon(),
    // A decision waits for a price read: each wakes a tick. Not the balances read an action asks
    // for: an intent left in flight would wake the next tick at once, and that one the next.
    wakeOn: (wake) => feeds.prices.events.on('updated', wake),
    intervalMs: config.poll.prices,
    ready: Promise.all([reconcile.ready, firstBalances]),
    signal: abort.signal,
    paused: options.paused,
  });
  // Fills of our vault orders, recorded once, each time the order feeds read history; orders we did
  // not place are adopted (recorded, never touched); ours that history stops listing are judged gone.
  const sync = { orders, journal, clock, log, audit, decimalsOf, authed: options.authed, rpc, arrivals: options.arrivals };
  const stopHistory = recordPriceHistory({
    feed: feeds.prices,
    markets: feeds.markets,
    db,
    clock,
    everyMs: config.history.sample_every,
    keepMs: config.history.keep,
    log,
  });
  // A rehearsal's vault orders live in its database: its own keeper fills them on the prices Trigger watches.
  const rehearsalOrders = rehearsal === null ? null : startRehearsalOrders({ db, journal, audit, client, clock, log, prices: feeds.prices });
  const stopUnknownIds = reportUnknownPredictionIds({ markets: feeds.markets, strategies: options.strategies, log });
  const stopSyncs = set.vault
    ? [feeds.orders && startVaultOrderSync({ feed: feeds.orders, ...sync }), feeds.dca && startDcaOrderSync({ feed: feeds.dca, ...sync })].filter(
        (s) => s !== null,
      )
    : [];

  return {
    journal,
    rpc,
    executor,
    balances,
    ticks,
    status: () => {
      const { value, ...feed } = balances.state();
      return { ...ticks.status(), balances: { ...feed, mints: value?.byMint.size ?? null } };
    },
    async stop() {
      executor.stop();
      stopHistory();
      for (const stopRecord of stopWalletRecords) stopRecord();
      stopUnknownIds();
      for (const stopSync of stopSyncs) stopSync();
      await Promise.all([...stopSyncs.map((s) => s.idle()), rehearsalOrders?.stop()]);
      abort.abort(new Error('engine stopping'));
      await Promise.allSettled([ticks.done, reconcile.done, balances.done]);
    },
  };
}
