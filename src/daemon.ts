import { type Clock, realTimeOf } from './clock.js';
import { reusedFor } from './ops/reusedFor.js';
import { version } from './version.js';
import { forwardActions, type DaemonEvents } from './daemonEvents.js';
import type { Config } from './config/config.js';
import { startEngine, type Engine } from './engine/engine.js';
import { unfinishedIntents, unfinishedText, type UnfinishedIntents } from './engine/unfinishedIntents.js';
import type { Logger } from './ops/log.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { meterActions } from './ops/actionMetrics.js';
import { reportActions } from './ops/actionReports.js';
import { startupScreen } from './ops/startupScreen.js';
import { engineTokenNamer } from './engine/engineTokenNames.js';
import { createNotifier, type Notifier } from './ops/notify.js';
import { createOutageMonitor, type OutageMonitor } from './ops/outage.js';
import { startOpsServer, type OpsServer } from './ops/opsServer.js';
import { databaseReadiness } from './ops/databaseReadiness.js';
import { Redactor } from './ops/redact.js';
import { createRandom, type Random } from './random.js';
import { PAPER_API_KEY, type PaperWorld } from './paper/paperWorld.js';
import { AuditLog } from './store/audit.js';
import type { Db } from './store/db.js';
import { openStore } from './store/migrate.js';
import { reportData } from './audit/reportData.js';
import { renderReport } from './audit/reportHtml.js';
import { statusFigures } from './audit/statusFigures.js';
import { hasAnyAction } from './store/actionQueries.js';
import { archiveDatabase } from './store/archiveDatabase.js';
import { takeDaemonLocks, type DaemonLocks } from './daemonLocks.js';
import type { LockFs } from './store/lockFile.js';
import { widerThanPrivate } from './store/permissions.js';
import { watchWrites, writeFaultOf, type WriteHealth } from './store/writeHealth.js';
import { errorMessage, type JupbotError } from './errors.js';
import { instanceId } from './store/instanceId.js';
import { storeFailure } from './store/storeFailure.js';
import type { WalletError } from './solana/walletError.js';
import { isLoopbackHost } from './config/fieldSchemas.js';
import { ignoredKey } from './solana/loadWallet.js';
import { databaseFile } from './store/paths.js';
import { TypedEmitter } from './typedEmitter.js';

export type { DaemonEvents } from './daemonEvents.js';

export interface DaemonDeps {
  readonly clock: Clock;
  readonly log: Logger;
  /** For webhook notifications. @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch;
  /** Every secret the daemon holds is registered here; share it with the logger. @default a new one */
  readonly redactor?: Redactor;
  /** Jitter and paper-mode seeds. @default an OS-seeded source */
  readonly random?: Random;
  /** How the Jupiter client and the Solana RPC reach their servers. @default globalThis.fetch */
  readonly network?: typeof globalThis.fetch;
  /** Paper mode's world. @default the embedded simulator on loopback, kept in the data directory */
  readonly paperWorld?: PaperWorld;
  /** The database's durability (store/db.ts): a backtest's throwaway database needs no fsync per commit. @default 'FULL' */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** The file system the data directory and wallet locks are taken on (tests make it read-only). @default node:fs */
  readonly lockFs?: LockFs;
  /**
   * Take the wallet's lock (one daemon per wallet on this host). A backtest does not: its wallet is
   * derived from its seed and trades only in its own in-process world. @default true
   */
  readonly exclusiveWallet?: boolean;
}

/** How often the live report refreshes, and how long one rendering is served. */
const LIVE_REPORT_MS = 30_000;

export interface Daemon {
  readonly events: TypedEmitter<DaemonEvents>;
  /** Base URL of the operations server (/healthz, /readyz, /metrics, /status). */
  readonly opsUrl: string;
  /** Paper mode: the embedded simulator's base URL and seed; null in live mode. */
  readonly simulator: { readonly url: string; readonly seed: string } | null;
  /** The Prometheus registry behind /metrics; the engine attaches its client and feeds, the executor reports intents. */
  readonly metrics: Metrics;
  /** Webhook notifications (`notify.webhooks`); fire-and-forget, never throws. */
  readonly notifier: Notifier;
  /** "Down longer than notify.down_after" alerts, one per outage: feeds and the login report here. */
  readonly outages: OutageMonitor;
  /** The strategies, wallet login and feeds. */
  readonly engine: Engine;
  /**
   * The database: its file, the daemon's connection (for reads; a write through it bypasses the
   * journal and the audit chain) and whether its writes fail (store/writeHealth.ts).
   */
  readonly store: { readonly file: string; readonly db: Db; readonly writes: WriteHealth };
  /** The data directory's instance id (`<data_dir>/instance-id`): names this daemon in logs, alerts and the audit log. */
  readonly instanceId: string;
  /**
   * The error the daemon stopped itself with (WALLET_SHARED: someone else trades its wallet), or
   * null. `jupbot run` ends with its exit code.
   */
  halted(): JupbotError | null;
  /** Stops taking work, records the stop, closes the database. Idempotent. */
  stop(reason?: string): Promise<void>;
  /** Settles once the daemon has stopped. */
  readonly done: Promise<void>;
}

/** How long a stop waits for its own webhook. */
const NOTIFY_GRACE_MS = 5_000;

/**
 * The composition root: takes the data directory's and the wallet's locks, opens and migrates the
 * database (its writes watched: store/writeHealth.ts), starts the embedded simulator in paper mode,
 * starts the engine (strategies with hot reload, the wallet's Trigger login, the feeds), records
 * the start and stop in the audit log and serves the operations endpoints.
 * In paper mode `deps.clock` should already be scaled by `sim.speed` (the CLI does this), so the
 * daemon and its simulated world share one time.
 */
export async function start(config: Config, deps: DaemonDeps): Promise<Daemon> {
  const { clock, log } = deps;
  const redactor = deps.redactor ?? new Redactor();
  const random = deps.random ?? createRandom();
  const events = new TypedEmitter<DaemonEvents>();
  const file = databaseFile(config.data_dir, config.mode);
  // One daemon per data directory and one per wallet, taken before the database is opened or moved.
  const locks: DaemonLocks = await takeDaemonLocks(config, { log, redactor, fs: deps.lockFs, exclusiveWallet: deps.exclusiveWallet });
  let instance: string;
  try {
    instance = instanceId(config.data_dir);
  } catch (error) {
    locks.release();
    throw storeFailure(error, config.data_dir);
  }
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore(file, { clock, ...(deps.synchronous ? { synchronous: deps.synchronous } : {}) });
  } catch (error) {
    locks.release();
    throw error;
  }
  const closeStore = (): void => {
    try {
      store.db.close();
    } catch (error) {
      log.error({ err: error, database: file }, `could not close the database ${file}: ${errorMessage(error)}`);
    }
  };
  for (const warning of widerThanPrivate(config.data_dir, file)) log.warn({ dataDir: config.data_dir }, `data directory readable by others: ${warning}`);
  const ignored = ignoredKey(config);
  // Rehearsal runs with the live config on purpose: its unread key is worth a line, not a warning.
  if (ignored) log[config.mode === 'rehearsal' ? 'info' : 'warn']({}, ignored);
  // Paper mode: the world continues from the data directory, or starts anew with a new database
  // (archiveDatabase.ts explains why a new world cannot inherit a database).
  let paper: PaperWorld | null = null;
  if (config.mode === 'paper') {
    try {
      // Imported only in paper mode: a live daemon never loads the simulator's code.
      paper = deps.paperWorld ?? (await (await import('./paper/openPaperWorld.js')).openPaperWorld(config, clock, log));
    } catch (error) {
      closeStore();
      locks.release();
      throw error;
    }
    if (!paper.restored && hasAnyAction(store.db)) {
      store.db.close();
      const archived = archiveDatabase(file, clock.now());
      log.info({ archived }, 'paper mode: a new simulated world starts, and so does its database; the previous run is kept');
      store = openStore(file, { clock, ...(deps.synchronous ? { synchronous: deps.synchronous } : {}) });
    }
  }
  const startedAt = clock.now();
  const metrics = createMetrics();
  // Webhook payloads are scrubbed like log lines: a secret that reaches a message never leaves the machine.
  const notifier = createNotifier({
    webhooks: config.notify.webhooks,
    clock,
    log,
    redactor,
    fetch: deps.fetch,
    onResult: metrics.notification,
    // A rehearsal's "filled" must never read as a real trade in a chat channel.
    ...(config.mode === 'rehearsal' ? { source: 'jupbot REHEARSAL' } : {}),
  });
  const outages = createOutageMonitor({ clock, notify: (n) => notifier.notify(n), thresholdMs: config.notify.down_after });
  // Every write from here on is watched (the audit log's and the journal's statements included): a
  // full, read-only or failing disk fails /readyz, is logged once and alerts like a feed outage.
  const writes = watchWrites(store.db, {
    file,
    clock,
    onChange(fault, previous) {
      if (fault !== null) {
        log.error({ err: fault.error, database: file }, `database writes fail: ${fault.error.message}; /readyz fails until a write succeeds`);
        outages.down('database', fault.error.message);
      } else {
        log.info({ database: file, failures: previous?.failures }, `database ${file} can be written again (${previous?.failures ?? 0} write(s) had failed)`);
        outages.up('database');
      }
    },
  });
  const audit = new AuditLog(store.db, clock);
  let simulator: { url: string; seed: string } | null = null;
  let engine: Engine | undefined;
  // Trades, order changes and failures as log lines and webhooks, from the audit log as it is written.
  const stopReports = reportActions({ audit, log, notify: (n) => notifier.notify(n), tokenName: engineTokenNamer(() => engine) });
  const stopMetering = meterActions({ audit, db: store.db, metrics });
  const stopForwarding = forwardActions(audit, events);

  // Someone else trades the wallet (engine/sharing/): the daemon stops itself and ends with the error.
  let halt: { readonly error: WalletError; readonly reason: string } | null = null;
  let haltNow: (() => void) | null = null;
  const onWalletShared = (error: WalletError, summary: string): void => {
    if (halt !== null) return;
    halt = { error, reason: `${error.code}: another trader on wallet ${locks.wallet.address}: ${summary}` };
    haltNow?.();
  };

  let ops: OpsServer | undefined;
  let running: Engine;
  try {
    engine = await startEngine({
      config,
      clock,
      random,
      log,
      redactor,
      db: store.db,
      audit,
      metrics,
      outages,
      wallet: locks.wallet,
      instanceId: instance,
      onWalletShared,
      // A backtest's wallet trades only in its own world: nobody else can trade it.
      watchWallet: deps.exclusiveWallet !== false,
      apiBaseUrl: paper?.url ?? config.api.base_url,
      apiKey: paper ? PAPER_API_KEY : config.api.key?.reveal(),
      fetch: deps.network,
      onWallet: paper ? (address) => paper?.fund(address) : undefined,
    });
    const started = engine;
    // Orders, fills and today's P&L read the whole history: computed at most every 10 s, however often asked.
    const figures = reusedFor(10_000, clock, () => statusFigures(store.db, clock.now()));
    ops = await startOpsServer({
      listen: config.http.listen,
      clock,
      checks: [databaseReadiness(store.db, file, writes), ...started.readiness()],
      metrics,
      onRefused: metrics.opsRefused,
      // The live report: the same page as `jupbot report`, read from the daemon's own connection. It
      // verifies the whole chain, synchronously: rendered at most once per refresh, however many
      // browsers ask, so the page costs the decide loop one rendering per refresh at most.
      pages: { '/': reusedFor(LIVE_REPORT_MS, clock, () => renderReport(reportData(store.db, clock.now()), { refreshSeconds: LIVE_REPORT_MS / 1000 })) },
      documents: {
        '/status': (): Record<string, unknown> => ({
          version,
          mode: config.mode,
          instanceId: instance,
          startedAt,
          schemaVersion: store.version,
          simulator: simulator,
          ...started.status(),
          audit: audit.head,
          ...figures(),
        }),
      },
    });
    running = started;
    simulator = paper && { url: paper.url, seed: paper.seed };
    audit.append({
      kind: 'daemon.started',
      data: {
        version,
        mode: config.mode,
        instanceId: instance,
        config: config.source.file,
        schemaVersion: store.version,
        migrationsApplied: store.applied,
        simulator,
        wallet: running.wallet,
      },
    });
  } catch (error) {
    await engine?.stop();
    await ops?.close();
    stopReports();
    stopMetering();
    stopForwarding();
    outages.close();
    notifier.close();
    await paper?.close();
    closeStore();
    locks.release();
    // A start that failed for the disk's sake (full, read-only) says so, with its own exit code.
    throw writeFaultOf(error, file) ?? error;
  }
  const screen = startupScreen({
    version,
    node: process.version,
    schemaVersion: store.version,
    config,
    wallet: running.wallet,
    simulator,
    database: file,
    opsUrl: ops.url,
    strategies: [...running.strategies.active.keys()],
    rejected: running.strategies.rejected().map((r) => ({ file: r.file, problem: r.problems[0] ?? '', kept: r.kept })),
  });
  log.info(
    {
      mode: config.mode,
      instance,
      wallet: running.wallet,
      database: file,
      ops: ops.url,
      schemaVersion: store.version,
      simulator,
      config: config.source.file,
      screen: screen.lines,
    },
    screen.headline,
  );
  notifier.notify({ type: 'lifecycle', action: 'started', detail: `${config.mode} mode, wallet ${running.wallet}` });
  if (!isLoopbackHost(config.http.listen.host)) {
    log.warn(
      { listen: `${config.http.listen.host}:${config.http.listen.port}` },
      `ops endpoints listen on ${ops.url}, beyond this machine (http.allow_remote): /status and /metrics have no authentication`,
    );
  }

  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop requested'): Promise<void> => {
    stopping ??= (async () => {
      let unfinished: UnfinishedIntents | undefined;
      let unrecorded = '';
      try {
        await running.stop();
        unfinished = unfinishedIntents(running.trading.journal.pending());
        stopReports();
        stopMetering();
        stopForwarding();
        outages.close();
        // The stop is worth telling: give its webhook a few seconds of real time, never more.
        notifier.notify({ type: 'lifecycle', action: 'stopped', detail: reason });
        const grace = new AbortController();
        await Promise.race([
          notifier.idle(),
          realTimeOf(clock)
            .sleep(NOTIFY_GRACE_MS, grace.signal)
            .catch(() => undefined),
        ]);
        grace.abort();
        notifier.close();
        await ops.close();
        await paper?.close();
        try {
          audit.append({ kind: 'daemon.stopped', data: { reason, uptimeMs: clock.now() - startedAt, unfinished: unfinished.byState } });
        } catch (error) {
          // The disk failed (full, read-only): the stop goes on, and `writes` keeps the fault for the exit code.
          const fault = writeFaultOf(error, file);
          if (fault === null) throw error;
          unrecorded = ` (not recorded in the audit log: ${fault.message})`;
        }
      } finally {
        // Each step on its own: a database or lock the disk will not let go of must not keep the stop from ending.
        closeStore();
        locks.release();
        log.info({ reason, unfinished: unfinished?.byState }, `jupbot stopped: ${reason}${unfinished ? `; ${unfinishedText(unfinished)}` : ''}${unrecorded}`);
        events.emit('stopped', { reason });
        resolveDone();
      }
    })();
    return stopping;
  };

  // The stop runs after whatever saw the other trader has returned (a history poll, an adoption pass).
  haltNow = () =>
    queueMicrotask(() => {
      if (halt !== null) stop(halt.reason).catch((error: unknown) => log.error({ err: error }, `stop failed: ${errorMessage(error)}`));
    });
  if (halt !== null) haltNow();

  queueMicrotask(() =>
    events.emit('started', {
      database: file,
      opsUrl: ops.url,
      schemaVersion: store.version,
      migrationsApplied: store.applied,
      simulator,
    }),
  );
  return {
    events,
    opsUrl: ops.url,
    simulator,
    metrics,
    notifier,
    outages,
    engine: running,
    store: { file, db: store.db, writes },
    instanceId: instance,
    halted: () => halt?.error ?? null,
    stop,
    done,
  };
}
