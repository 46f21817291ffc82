/**
 * The daemon's composition root: the one place that builds every part of a running daemon and
 * wires the parts to each other. The daemon (src/daemon.ts) takes the locks, opens the store (and
 * paper mode's world) and hands over here; every other file builds one part.
 *
 * In order: the ops pieces (metrics, webhooks, outage alerts, the database's write health, the
 * audit log with its reports), the one rate-limited Jupiter client and the Solana RPC, the guard
 * with the signer (or, in a rehearsal, the guard alone) and the Trigger login, the strategy watcher,
 * the API areas and every feed; then the journal, the handler set and the executor, the records the
 * audit reads (wallet balances, observed basis, price history), the mirror syncs; the first
 * strategy scan before anything polls; then the operations server, the feeds, reconciliation and
 * the decide loop, and the wallet's history; last, with `fleet.redis`, the fleet roster's heartbeat.
 *
 * Intervals reuse `config.poll` rather than adding keys: balances and ticks follow `poll.prices`
 * (a decision needs both fresh), reconciliation follows `poll.orders` (it polls the state of what
 * was sent). A planned intent older than STALE_PRICE_MS when reconciliation finds it is cancelled:
 * the price it was decided on is gone.
 */
import { createEngineControl } from '../control/engineControl.js';
import { startControlChannel, type ControlServer } from '../control/controlServer.js';
import { forwardActions } from '../daemonEvents.js';
import { searchTokens } from '../jupiter/tokens.js';
import { createTriggerSession } from '../jupiter/session.js';
import { meterActions } from '../ops/actionMetrics.js';
import { reportActions } from '../ops/actionReports.js';
import { announceStart } from '../ops/announceStart.js';
import { type DaemonOpsServer, startDaemonOpsServer } from '../ops/daemonOpsServer.js';
import { auditFeed } from '../ops/feedAudit.js';
import { watchDatabaseWrites } from '../ops/databaseWrites.js';
import { createMetrics } from '../ops/metrics.js';
import { createNotifier } from '../ops/notify.js';
import { notifyLast } from '../ops/notifyLast.js';
import { createOutageMonitor } from '../ops/outage.js';
import type { RosterPublisher } from '../fleet/rosterPublisher.js';
import { hostname } from 'node:os';
import { createProtections } from '../protections/protections.js';
import { openLedger } from '../rehearsal/openLedger.js';
import { rehearsalPositions } from '../rehearsal/positionsOverlay.js';
import { startRehearsalOrders } from '../rehearsal/rehearsalOrders.js';
import { createSolanaRpc } from '../solana/rpc.js';
import { AuditLog } from '../store/audit.js';
import { Journal } from '../store/journal.js';
import { StrategyVersions } from '../store/strategyVersions.js';
import { TokenPins } from '../store/tokenPins.js';
import { TriggerOrders } from '../store/triggerOrders.js';
import { writeFaultOf } from '../store/writeHealth.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import { STALE_PRICE_MS } from '../strategies/snapshot.js';
import { strategyLimits } from '../strategies/strategyLimits.js';
import { version } from '../version.js';
import { createEngineAreas } from './areas/engineAreas.js';
import { cachedSearch } from './cachedSearch.js';
import { decimalsResolver } from './decimalsResolver.js';
import { createEngineClient } from './engineClient.js';
import { createEngineGuard } from './engineGuard.js';
import type { Engine, EngineInputs, EngineStop } from './engineParts.js';
import { strategiesReadiness, triggerLoginReadiness } from './engineReadiness.js';
import { engineTokenNamer } from './engineTokenNames.js';
import { createExecutor } from './executor/executor.js';
import { createFeedSet } from './feeds/feedSet.js';
import { feedReadinessChecks } from './feeds/readiness.js';
import { startDcaOrderSync } from './mirror/dcaOrderSync.js';
import { startVaultOrderSync } from './mirror/orderSync.js';
import { createModeHandlerSet } from './modeHandlerSet.js';
import { recordPriceHistory } from './priceHistory.js';
import { startReconcileLoop } from './reconcile.js';
import { recordObservedBasis } from './recordObservedBasis.js';
import { recordWalletBalances } from './recordWalletBalances.js';
import { jupiterPrograms } from './sharing/foreignTransaction.js';
import { OrderArrivals } from './sharing/orderArrivals.js';
import { createWalletHistoryFeed } from './sharing/walletHistory.js';
import { createWalletSharing } from './sharing/walletSharing.js';
import { eventsInUse, marketsInUse, mintsInUse } from './strategyInterest.js';
import { StrategyWatcher } from './strategyWatcher.js';
import { startTickLoop } from './tick/tickLoop.js';
import { decisionRecords } from './tick/decisionRecords.js';
import { vaultOrderViews } from './tick/vaultOrderViews.js';
import { unfinishedIntents } from './unfinishedIntents.js';
import { reportUnknownPredictionIds } from './unknownPredictionIds.js';

export type { Engine, EngineInputs, EngineStop } from './engineParts.js';

/** Builds every part, wires them and starts them; the start and, at `stop`, the stop are recorded in the audit log. */
export async function startEngine(inputs: EngineInputs): Promise<Engine> {
  const { config, clock, random, log, redactor, wallet, paper } = inputs;
  const { db, file } = inputs.store;
  const startedAt = clock.now();
  const metrics = createMetrics();
  // Webhook payloads are scrubbed like log lines: a secret that reaches a message never leaves the machine.
  const notifier = createNotifier({
    webhooks: config.notify.webhooks,
    clock,
    log,
    redactor,
    fetch: inputs.fetch,
    onResult: metrics.notification,
    // A rehearsal's "filled" must never read as a real trade in a chat channel.
    ...(config.mode === 'rehearsal' ? { source: 'jupbot REHEARSAL' } : {}),
  });
  const outages = createOutageMonitor({ clock, notify: (n) => notifier.notify(n), thresholdMs: config.notify.down_after });
  // Every write from here on is watched (the audit log's and the journal's statements included): a
  // full, read-only or failing disk fails /readyz, is logged once and alerts like a feed outage.
  const writes = watchDatabaseWrites(db, { file, clock, log, outages });
  const audit = new AuditLog(db, clock);
  const client = await createEngineClient({
    config,
    paper,
    clock,
    random,
    log,
    redactor,
    // Mode and wallet, as the roster names it: a rehearsal beside the live daemon of its wallet is another member.
    daemonId: `${config.mode}-${wallet.address}`,
    network: inputs.network,
    onFleetQuota: metrics.fleetQuotaShared,
  });
  const detachClient = metrics.attachClient(client);
  // Paper mode funds the wallet in its freshly started simulated world, before anything polls or trades.
  paper?.fund(wallet.address);
  // The simulator serves the RPC next to the APIs; live mode has its own node.
  const rpc = createSolanaRpc({ url: paper ? `${paper.url}/rpc` : config.rpc.url, clock, redactor, fetch: inputs.network });
  // The guard, and the signer over it: a rehearsal holds the guard alone, with no key, no signer and no Trigger login.
  const guard = createEngineGuard({ config, wallet, rpc, db, audit, clock, log });
  const { signer, execution } = guard;
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
  const rehearsal = 'rehearsal' in execution ? execution.rehearsal : null;

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
  const activeStrategies = (): ReadonlyMap<string, LoadedStrategy> => strategies.active;
  // The operator's halt, pauses and cancels (src/control/): persisted, so a halted daemon starts halted.
  const control = createEngineControl({
    db,
    audit,
    clock,
    log,
    strategies: activeStrategies,
    rejectedFiles: () => strategies.rejected().map((r) => r.file),
    filesSeen: () => strategies.filesSeen,
    positions: () => feeds.positions?.state().value,
    markets: () => feeds.markets.state().value,
    controlsOnly: inputs.controlsOnly,
    notify: (n) => notifier.notify(n),
    // Called only from the control channel, once everything below is built.
    clearProtections: (by) => protections.clearAll(by),
  });
  // Every answer of the client says whether the key may use its area; nothing is polled that no strategy needs.
  const areas = createEngineAreas({ client, clock, audit, log, db, wallet: wallet.address, strategies, alsoNeeded: (area) => control.needs(area) });
  // The operator's halt or pause, else an area that is off, else an account-wide protection that
  // tripped (src/protections/), pauses a strategy.
  const paused = {
    strategy: (s: LoadedStrategy) => control.paused(s) ?? areas.gate.strategyPaused(s) ?? protections.blocks(s),
    vaultOrders: () => areas.gate.areaOff('trigger'),
  };
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
    // A rehearsal's balances are its ledger's; live and paper read the chain.
    balances: rehearsal === null ? { from: 'chain', rpc, wallet: wallet.address } : { from: 'ledger', db },
    metrics,
    outages,
    paused: (area) => areas.gate.feedPaused(area),
  });
  const balances = feeds.balances;
  const protections = createProtections({
    config: config.protections,
    clock,
    db,
    audit,
    log,
    notify: (n) => notifier.notify(n),
    feeds: { balances, prices: feeds.prices, positions: feeds.positions },
    settleMs: 2 * Math.max(config.poll.orders, config.poll.positions),
  });
  // Trades, order changes and failures as log lines, webhooks, metrics and events, from the audit log as it is written.
  const stopAuditReaders = [
    reportActions({ audit, log, notify: (n) => notifier.notify(n), tokenName: engineTokenNamer(() => ({ strategies, feeds })) }),
    meterActions({ audit, db, metrics }),
    forwardActions(audit, inputs.events),
  ];
  areas.onChange(() => feeds.recheck());
  control.state.events.on('changed', () => feeds.recheck());
  const stopFeedAudits = feeds.all.map((feed) => auditFeed(feed, audit, clock));

  const journal = new Journal(db, audit, clock);
  // For the audit: what the wallet holds, then the basis of what it held before jupbot (in this
  // order: a first reading is recorded before the basis looks for it), and the prices seen.
  const stopRecords = [
    recordWalletBalances({ feed: balances, db, audit, log }),
    recordObservedBasis({ prices: feeds.prices, balances, db, audit, log }),
    recordPriceHistory({ feed: feeds.prices, markets: feeds.markets, db, clock, everyMs: config.history.sample_every, keepMs: config.history.keep, log }),
    reportUnknownPredictionIds({ markets: feeds.markets, strategies: activeStrategies, log }),
    // Evaluated on every prices and balances read, before the decide loop (subscribed later) sees it.
    protections.watch(),
    ...stopFeedAudits,
  ];
  const decimalsOf = decimalsResolver({ strategies: activeStrategies, prices: () => feeds.prices.state().value, client });
  const orders = new TriggerOrders(db, audit);
  const set = createModeHandlerSet({ execution, config, client, authed: session?.authed, rpc, db, journal, orders, audit, clock, log, decimalsOf });
  const executor = createExecutor({ journal, db, audit, rpc, clock, handlers: set.handlers, routes: set.routes, log });
  // Someone else trading this wallet: a Trigger order created while we run, or Jupiter trades signed
  // with its key that the journal did not make (engine/sharing/). Once seen, the executor takes no new intent.
  const sharing = createWalletSharing({
    wallet: wallet.address,
    instanceId: inputs.instanceId,
    dataDir: config.data_dir,
    shared: config.wallet.shared,
    startedAt,
    audit,
    onStop(error, summary) {
      // Nothing new from this moment; the daemon's stop follows.
      executor.stop();
      inputs.onWalletShared?.(error, summary);
    },
  });
  const arrivals = new OrderArrivals({ startedAt, onArrival: (order) => sharing.report({ kind: 'order', ...order }) });
  // Fills of our vault orders, recorded once, each time the order feeds read history; orders we did
  // not place are adopted (recorded, never touched); ours that history stops listing are judged gone.
  const sync = { orders, journal, clock, log, audit, decimalsOf, authed: session?.authed, rpc, arrivals };
  const stopSyncs = set.vault
    ? [feeds.orders && startVaultOrderSync({ feed: feeds.orders, ...sync }), feeds.dca && startDcaOrderSync({ feed: feeds.dca, ...sync })].filter(
        (s) => s !== null,
      )
    : [];
  // A rehearsal trades nothing: whoever else trades the wallet is none of its business.
  const walletHistory =
    config.wallet.shared || inputs.watchWallet === false || rehearsal !== null
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
  const stopHistoryWatch = walletHistory ? [metrics.attachFeed(walletHistory), outages.watchFeed(walletHistory), auditFeed(walletHistory, audit, clock)] : [];
  /** What the audit's readers and the feeds' watchers hold: let go once nothing more is written. */
  const detachReaders = (): void => {
    for (const stop of [...stopHistoryWatch, ...stopAuditReaders]) stop();
  };

  try {
    // Route venues newer than the bundled table, from the aggregator's on-chain IDL (read once, before anything trades).
    await guard.venues.start();
    // The first scan completes before the feeds start, so their first poll already covers the strategies.
    await strategies.poll();
    if (strategies.active.size === 0) {
      // Most likely a wrong strategies_dir: say so rather than idle silently for weeks.
      log.warn({ dir: config.strategies_dir }, 'no valid strategy in strategies_dir: nothing will trade until one is added');
    }
    // The rehearsal ledger opens before its balances feed first reads it: strategies see its balances from the first tick.
    if (rehearsal !== null) await openLedger({ db, audit, clock, log, rpc, wallet: wallet.address, declared: config.rehearsal.balances, search });
  } catch (error) {
    for (const stop of [...stopRecords, ...stopSyncs]) stop();
    detachReaders();
    areas.close();
    detachClient();
    client.close();
    outages.close();
    notifier.close();
    throw error;
  }

  // Stopped in two steps: the decide loop, reconciliation and what they drive first, then what they decide on.
  const abort = new AbortController();
  const watch = new AbortController();
  const watching = strategies.run(watch.signal);
  areas.start(watch.signal);
  // The first tick waits for the first balances read (ok or failed): deciding before it would only skip.
  const firstBalances = Promise.race([balances.events.next('updated'), balances.events.next('failed'), balances.events.next('stopped')]);
  feeds.start(watch.signal);
  walletHistory?.start(watch.signal);
  // A rehearsal's vault orders live in its database: its own keeper fills them on the prices Trigger watches.
  const rehearsalOrders = rehearsal === null ? null : startRehearsalOrders({ db, journal, audit, client, clock, log, prices: feeds.prices });
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
    strategies: activeStrategies,
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
    // A decision waits for a read of what it decides on (prices; a prediction exit's scores, markets
    // and positions): each wakes a tick. A balances read wakes only a tick that waited for it.
    // An operator's halt, pause or resume wakes it too: a halt's cancels must not wait for a price.
    wakeOn: (wake) => {
      const offs = [feeds.prices, feeds.scores, feeds.markets, feeds.positions].map((feed) => feed?.events.on('updated', wake));
      offs.push(control.state.events.on('changed', wake));
      return () => offs.forEach((off) => off?.());
    },
    wakeOnRead: (read) => balances.events.on('updated', read),
    intervalMs: config.poll.prices,
    ready: Promise.all([reconcile.ready, firstBalances]),
    signal: abort.signal,
    paused,
    controls: () => control.intents(),
  });
  const stopParts = async (): Promise<void> => {
    // Trading first: no new intent and no new call while the feeds it decides on are still there.
    executor.stop();
    for (const stop of [...stopRecords, ...stopSyncs]) stop();
    await Promise.all([...stopSyncs.map((s) => s.idle()), rehearsalOrders?.stop()]);
    abort.abort(new Error('engine stopping'));
    await Promise.allSettled([ticks.done, reconcile.done]);
    watch.abort(new Error('engine stopping'));
    await Promise.allSettled([watching, feeds.done, walletHistory?.done, areas.done()]);
    areas.close();
    detachClient();
    client.close();
    detachReaders();
    outages.close();
  };
  const simulator = paper && { url: paper.url, seed: paper.seed };

  let ops: DaemonOpsServer | undefined;
  let roster: RosterPublisher | null = null;
  let channel: ControlServer | null = null;
  let stopping: Promise<EngineStop> | undefined;
  const engine: Engine = {
    wallet: wallet.address,
    client,
    session,
    strategies,
    feeds,
    areas,
    protections,
    trading: { journal, rpc, executor, ticks },
    walletHistory,
    control,
    metrics,
    notifier,
    outages,
    audit,
    writes,
    get opsUrl() {
      return ops?.url ?? '';
    },
    get roster() {
      return roster;
    },
    simulator,
    status: () => ({
      wallet: wallet.address,
      areas: areas.status(),
      session: session?.health() ?? null,
      strategies: [...strategies.active.values()].map((s) => ({ name: s.name, kind: s.spec.kind, file: s.file, hash: s.hash })),
      feeds: feeds.status(),
      trading: { ...ticks.status(), balances: feeds.balancesStatus() },
      ...(protections.configured ? { protections: protections.status() } : {}),
      control: control.status(),
    }),
    stop: (reason) =>
      (stopping ??= (async (): Promise<EngineStop> => {
        // Marked stopped first, while the figures it carries are still the running daemon's.
        await roster?.stop();
        await stopParts();
        const unfinished = unfinishedIntents(journal.pending());
        // The stop is worth telling: its webhook gets a few seconds of real time, never more.
        await notifyLast(notifier, clock, { type: 'lifecycle', action: 'stopped', detail: reason });
        try {
          await ops?.close();
        } finally {
          await channel?.close();
        }
        try {
          audit.append({ kind: 'daemon.stopped', data: { reason, uptimeMs: clock.now() - startedAt, unfinished: unfinished.byState } });
          return { unfinished, unrecorded: null };
        } catch (error) {
          // The disk failed (full, read-only): the stop goes on, and `writes` keeps the fault for the exit code.
          const fault = writeFaultOf(error, file);
          if (fault === null) throw error;
          return { unfinished, unrecorded: fault.message };
        }
      })()),
  };
  try {
    ops = await startDaemonOpsServer({
      config,
      bound: inputs.opsPort,
      clock,
      db,
      file,
      writes,
      metrics,
      identity: { instanceId: inputs.instanceId, startedAt, schemaVersion: inputs.store.version, simulator },
      status: () => engine.status(),
      auditHead: () => audit.head,
      market: { prices: () => feeds.prices.state(), balances: () => balances.state(), tokenName: engineTokenNamer(() => ({ strategies, feeds })) },
      checks: [
        ...feeds.readiness(),
        ...feedReadinessChecks(walletHistory ? [walletHistory] : []),
        strategiesReadiness(ticks),
        areas.gate.readiness(),
        triggerLoginReadiness(session, areas.gate),
        sharing.readiness(),
        ...(protections.configured ? [protections.readiness()] : []),
      ],
    });
    if (inputs.controlChannel !== false) channel = await startControlChannel({ dataDir: config.data_dir, log, answer: (request) => control.answer(request) });
    audit.append({
      kind: 'daemon.started',
      data: {
        version,
        mode: config.mode,
        instanceId: inputs.instanceId,
        config: config.source.file,
        schemaVersion: inputs.store.version,
        migrationsApplied: inputs.store.applied,
        simulator,
        wallet: wallet.address,
        ...(inputs.controlsOnly ? { controlsOnly: true } : {}),
      },
    });
  } catch (error) {
    await stopParts();
    try {
      await ops?.close();
    } finally {
      await channel?.close();
    }
    notifier.close();
    // A start that failed for the disk's sake (full, read-only) says so, with its own exit code.
    throw writeFaultOf(error, file) ?? error;
  }
  // The fleet's roster (config `fleet.redis`): this daemon's entry, its heartbeat and today's figures.
  const redisUrl = config.fleet.redis;
  const server = ops;
  if (redisUrl !== null && server !== undefined) {
    // Imported here: a daemon without a fleet never loads the Redis client.
    const { startRosterPublisher } = await import('../fleet/rosterPublisher.js');
    const { rosterSources } = await import('../fleet/rosterSources.js');
    roster = startRosterPublisher({
      redis: redisUrl,
      fleet: config.fleet.name,
      heartbeatMs: config.fleet.heartbeat,
      clock,
      log,
      identity: { wallet: wallet.address, mode: config.mode, version, host: hostname(), pid: process.pid, opsUrl: server.url, startedAt },
      sources: rosterSources({ db, clock, auditHead: () => audit.head, readiness: () => server.readiness(), control: () => control.status(), redactor }),
    });
  }
  log.debug({ wallet: wallet.address, strategies: [...strategies.active.keys()] }, 'engine started');
  announceStart(log, {
    version,
    node: process.version,
    schemaVersion: inputs.store.version,
    config,
    wallet: wallet.address,
    simulator,
    database: file,
    opsUrl: engine.opsUrl,
    instanceId: inputs.instanceId,
    strategies: [...strategies.active.keys()],
    rejected: strategies.rejected().map((r) => ({ file: r.file, problem: r.problems[0] ?? '', kept: r.kept })),
  });
  notifier.notify({ type: 'lifecycle', action: 'started', detail: `${config.mode} mode, wallet ${wallet.address}` });

  return engine;
}
