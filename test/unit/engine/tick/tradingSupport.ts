/**
 * The engine's trading stack, built the way src/engine/trading.ts (and the feed set of engine.ts)
 * builds it, over the in-process simulator on a ManualClock and a real SQLite file: every feed of
 * createFeedSet (prices, markets, scores, positions, trading status, price and DCA orders), the
 * balances feed, the executor with every handler, every route, the order-history syncs,
 * reconciliation and the decide loop. Only the sockets differ: the Jupiter client and the RPC talk
 * to `sim.dispatch` in process.
 *
 * The handlers and routes are trading.ts's own (createHandlerSet); the rest repeats startTrading's
 * few lines of wiring because its RPC is built from a URL (no injectable fetch): keep them in step.
 */
import type { Executor } from '../../../../src/engine/executor/executor.js';
import { createExecutor } from '../../../../src/engine/executor/executor.js';
import { createHandlerSet } from '../../../../src/engine/executor/kindSet.js';
import { decimalsResolver } from '../../../../src/engine/decimalsResolver.js';
import { startDcaOrderSync } from '../../../../src/engine/mirror/dcaOrderSync.js';
import { startVaultOrderSync } from '../../../../src/engine/mirror/orderSync.js';
import { createBalancesFeed } from '../../../../src/engine/feeds/balances.js';
import { createFeedSet, type FeedSet } from '../../../../src/engine/feeds/feedSet.js';
import { startReconcileLoop } from '../../../../src/engine/reconcile.js';
import { startTickLoop, type TickEvents, type TickLoop } from '../../../../src/engine/tick/tickLoop.js';
import { vaultOrderViews } from '../../../../src/engine/tick/vaultOrderViews.js';
import { createJupiterClient } from '../../../../src/jupiter/index.js';
import { withBearer } from '../../../../src/jupiter/transport.js';
import { createRandom } from '../../../../src/random.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc } from '../../../../src/solana/rpc.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { TriggerOrders } from '../../../../src/store/triggerOrders.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { STALE_PRICE_MS } from '../../../../src/strategies/snapshot.js';
import { track } from '../../store/helpers.js';
import { simFetch, type World } from '../executor/support.js';

/** Every poll (prices, scores, positions, orders) and the tick share one interval: one advance, one round. */
export const TRADING_INTERVAL = 10_000;

export interface TradingStack {
  db: Db;
  audit: AuditLog;
  journal: Journal;
  orders: TriggerOrders;
  executor: Executor;
  feeds: FeedSet;
  ticks: TickLoop;
  /** Every tick-loop event, in order. */
  seen: { name: keyof TickEvents; payload: TickEvents[keyof TickEvents] }[];
  /** Advances the clock one interval at a time until `n` more ticks have run (feeds poll on the way). */
  tick(n?: number): Promise<TickEvents['tick'][]>;
  /** Stops everything as startTrading's stop() does, then closes the database (a process end). */
  stop(): Promise<void>;
}

/** engine.ts's `mintsInUse` / `marketsInUse` / `eventsInUse` (not exported there). */
function interest(strategies: ReadonlyMap<string, LoadedStrategy>): { mints: string[]; markets: string[]; events: string[] } {
  const mints = new Set<string>();
  const markets = new Set<string>();
  const events = new Set<string>();
  for (const { spec, tokens } of strategies.values()) {
    for (const token of Object.values(tokens)) if (token) mints.add(token.mint);
    if (spec.kind === 'prediction-exit' && spec.positions.market !== undefined) markets.add(spec.positions.market);
    if (spec.kind === 'prediction-exit' && spec.positions.event !== undefined) events.add(spec.positions.event);
  }
  return { mints: [...mints].sort(), markets: [...markets].sort(), events: [...events].sort() };
}

/**
 * Boots a "process" on the world's database file and starts trading: feeds first (engine.ts starts
 * them before startTrading), then everything startTrading starts. Resolves once every feed has a
 * value and the first tick has run, so a test starts from a settled state.
 */
export async function startTradingStack(w: World, loaded: ReadonlyMap<string, LoadedStrategy>, intervalMs = TRADING_INTERVAL): Promise<TradingStack> {
  const { clock } = w;
  const { db } = openStore(w.file, { clock });
  track(db);
  const audit = new AuditLog(db, clock);
  const fetch = simFetch(w.sim);
  // A generous rate: the limiter would otherwise park polls on the manual clock between advances.
  const client = createJupiterClient({ baseUrl: 'http://sim.local', apiKey: 'trading-test-key', requestsPerSecond: 1000, clock, random: createRandom('trading'), fetch });
  const authed = withBearer(client, () => Promise.resolve(w.sim.control.triggerToken(w.wallet.address)));
  const abort = new AbortController();

  // engine.ts: the feed set, started before trading.
  const uses = (): ReturnType<typeof interest> => interest(loaded);
  const feeds = createFeedSet({
    client,
    authed,
    clock,
    poll: { prices: intervalMs, scores: intervalMs, positions: intervalMs, orders: intervalMs },
    wallet: w.wallet.address,
    mints: () => uses().mints,
    eventIds: () => uses().events,
    marketIds: () => uses().markets,
  });
  const firstValues = Promise.all(feeds.all.map((f) => f.events.next('updated')));
  feeds.start(abort.signal);

  // trading.ts from here on.
  const journal = new Journal(db, audit, clock);
  const rpc = createSolanaRpc({ url: 'http://sim.local/rpc', clock, fetch });
  const signer = createRpcGuardedSigner({ wallet: w.wallet, audit, rpc, clock });
  const balances = createBalancesFeed({ rpc, clock, wallet: w.wallet.address, intervalMs });
  const decimalsOf = decimalsResolver({ strategies: () => loaded, prices: () => feeds.prices.state().value, client });
  const orders = new TriggerOrders(db);
  const set = createHandlerSet({ client, authed, rpc, signer, journal, orders, clock, decimalsOf });
  const executor = createExecutor({ journal, rpc, clock, handlers: set.handlers });

  balances.start(abort.signal);
  await Promise.all([firstValues, balances.events.next('updated')]);
  const reconcile = startReconcileLoop({ journal, executor, clock, audit, intervalMs, staleAfterMs: STALE_PRICE_MS, signal: abort.signal });
  const ticks = startTickLoop({
    clock,
    db,
    journal,
    audit,
    executor,
    strategies: () => loaded,
    sources: () => ({
      prices: feeds.prices.state(),
      balances: balances.state(),
      positions: feeds.positions?.state(),
      vaultOrders: vaultOrderViews(db),
      markets: feeds.markets.state(),
      scores: feeds.scores.state(),
      tradingStatus: feeds.tradingStatus.state(),
    }),
    refreshBalances: () => balances.pollSoon(),
    intervalMs,
    ready: reconcile.ready,
    signal: abort.signal,
    routes: set.routes,
  });
  const sync = { orders, journal, clock, audit, decimalsOf };
  const stopSyncs = [feeds.orders && startVaultOrderSync({ feed: feeds.orders, ...sync }), feeds.dca && startDcaOrderSync({ feed: feeds.dca, ...sync })].filter((s) => s !== null);

  const seen: TradingStack['seen'] = [];
  for (const name of ['tick', 'planned', 'executed', 'deferred'] as const) ticks.events.on(name, (payload) => seen.push({ name, payload }));
  await ticks.events.next('tick');

  return {
    db,
    audit,
    journal,
    orders,
    executor,
    feeds,
    ticks,
    seen,
    async tick(n = 1) {
      const out: TickEvents['tick'][] = [];
      for (let i = 0; i < n; i++) {
        const next = ticks.events.next('tick');
        await clock.advance(intervalMs);
        out.push(await next);
      }
      return out;
    },
    async stop() {
      executor.stop();
      for (const stopSync of stopSyncs) stopSync();
      await Promise.all(stopSyncs.map((s) => s.idle()));
      abort.abort(new Error('engine stopping'));
      await Promise.allSettled([ticks.done, reconcile.done, balances.done, feeds.done]);
      db.close();
    },
  };
}

/** Rows of one SQL count. */
export function countRows(db: Db, sql: string, ...args: unknown[]): number {
  return (db.prepare(sql).get(...args) as { n: number }).n;
}
