import type { Clock } from './clock.js';
import type { DaemonEvents } from './daemonEvents.js';
import type { Config } from './config/config.js';
import { startEngine, type Engine, type EngineStop } from './engine/engine.js';
import { unfinishedText } from './engine/unfinishedIntents.js';
import type { Logger } from './ops/log.js';
import type { Metrics } from './ops/metrics.js';
import type { Notifier } from './ops/notify.js';
import type { OutageMonitor } from './ops/outage.js';
import { Redactor } from './ops/redact.js';
import { createRandom, type Random } from './random.js';
import type { PaperWorld } from './paper/paperWorld.js';
import type { Db } from './store/db.js';
import { openStore } from './store/migrate.js';
import { hasAnyAction } from './store/actionQueries.js';
import { archiveDatabase } from './store/archiveDatabase.js';
import { takeDaemonLocks, type DaemonLocks } from './daemonLocks.js';
import type { LockFs } from './store/lockFile.js';
import { widerThanPrivate } from './store/permissions.js';
import type { WriteHealth } from './store/writeHealth.js';
import { errorMessage, type JupbotError } from './errors.js';
import { instanceId } from './store/instanceId.js';
import { storeFailure } from './store/storeFailure.js';
import type { WalletError } from './solana/walletError.js';
import { ignoredKey } from './solana/loadWallet.js';
import { databaseFile } from './store/paths.js';
import { bindOpsPort, type BoundOpsPort } from './ops/opsPort.js';
import { OPS_LIMITS } from './ops/opsServer.js';
import { requirePreflight, type PreflightDemand } from './preflight/requirePreflight.js';
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
  /**
   * `jupbot run`: a live start trades only once a preflight is recorded (preflight/startGate.ts),
   * else it ends with `PREFLIGHT_REQUIRED` before anything is called. Absent: not asked (tests,
   * backtests, embeddings that check for themselves).
   */
  readonly preflight?: PreflightDemand | undefined;
  /**
   * Take only the operator's control intents (cancels, sales); no strategy decides. A `halt
   * --cancel-orders` with no daemon running starts the daemon this way until nothing is left. @default false
   */
  readonly controlsOnly?: boolean;
  /** Listen on `<data_dir>/control.sock` for `jupbot halt`, `pause`, `resume`. A backtest does not. @default true */
  readonly controlChannel?: boolean;
}

export interface Daemon {
  readonly events: TypedEmitter<DaemonEvents>;
  /** Base URL of the operations server (/healthz, /readyz, /metrics, /status). */
  readonly opsUrl: string;
  /** Paper mode: the embedded simulator's base URL and seed; null in live mode. */
  readonly simulator: { readonly url: string; readonly seed: string } | null;
  /** The Prometheus registry behind /metrics; the client, the feeds and the audit log's actions report to it. */
  readonly metrics: Metrics;
  /** Webhook notifications (`notify.webhooks`); fire-and-forget, never throws. */
  readonly notifier: Notifier;
  /** "Down longer than notify.down_after" alerts, one per outage: feeds, the login and the database report here. */
  readonly outages: OutageMonitor;
  /** Everything the composition root built and runs: the strategies, the wallet's login, the feeds, trading. */
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

/**
 * Starts the daemon: takes the data directory's and the wallet's locks (reading the key), binds the
 * ops port, opens and migrates the database, asks for a live start's preflight (in paper mode it
 * opens its world instead: a new world starts a new database), then hands over to
 * the composition root (engine/engine.ts), which builds and starts everything else. Every resource
 * a start needs is thus taken before the first call to Jupiter or the node: a taken port (exit 78),
 * a held lock (73) or a missing preflight (79) fails a start that has called nothing. At the stop it
 * closes what it opened once the root has stopped what it built.
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
  // The ops port next, before the database is written or anything called: a port another process
  // holds fails the start here, with nothing done (its socket is then handed to the ops server).
  let opsPort: BoundOpsPort;
  try {
    opsPort = await bindOpsPort(config.http.listen, OPS_LIMITS);
  } catch (error) {
    locks.release();
    throw error;
  }
  const releaseEarly = async (): Promise<void> => {
    await opsPort.close().catch((error: unknown) => log.error({ err: error }, `could not close the ops port: ${errorMessage(error)}`));
    locks.release();
  };
  let instance: string;
  try {
    instance = instanceId(config.data_dir);
  } catch (error) {
    await releaseEarly();
    throw storeFailure(error, config.data_dir);
  }
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore(file, { clock, ...(deps.synchronous ? { synchronous: deps.synchronous } : {}) });
  } catch (error) {
    await releaseEarly();
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
  if (deps.preflight) {
    try {
      requirePreflight(store.db, config, locks.wallet.address, deps.preflight, { clock, log });
    } catch (error) {
      closeStore();
      await releaseEarly();
      throw error;
    }
  }
  // Paper mode: the world continues from the data directory, or starts anew with a new database
  // (archiveDatabase.ts explains why a new world cannot inherit a database).
  let paper: PaperWorld | null = null;
  if (config.mode === 'paper') {
    try {
      // Imported only in paper mode: a live daemon never loads the simulator's code.
      paper = deps.paperWorld ?? (await (await import('./paper/openPaperWorld.js')).openPaperWorld(config, clock, log));
    } catch (error) {
      closeStore();
      await releaseEarly();
      throw error;
    }
    if (!paper.restored && hasAnyAction(store.db)) {
      store.db.close();
      try {
        const archived = archiveDatabase(file, clock.now());
        log.info({ archived }, 'paper mode: a new simulated world starts, and so does its database; the previous run is kept');
        store = openStore(file, { clock, ...(deps.synchronous ? { synchronous: deps.synchronous } : {}) });
      } catch (error) {
        // The old database is closed already: let go of the world, the port and the locks.
        await paper.close();
        await releaseEarly();
        throw error;
      }
    }
  }
  let halt: { readonly error: WalletError; readonly reason: string } | null = null;
  let haltNow: (() => void) | null = null;
  let running: Engine;
  try {
    running = await startEngine({
      config,
      clock,
      random,
      log,
      redactor,
      store: { db: store.db, file, version: store.version, applied: store.applied },
      wallet: locks.wallet,
      instanceId: instance,
      paper,
      events,
      // Someone else trades the wallet (engine/sharing/): the daemon stops itself and ends with the error.
      onWalletShared(error, summary) {
        if (halt !== null) return;
        halt = { error, reason: `${error.code}: another trader on wallet ${locks.wallet.address}: ${summary}` };
        haltNow?.();
      },
      // A backtest's wallet trades only in its own world: nobody else can trade it.
      watchWallet: deps.exclusiveWallet !== false,
      controlsOnly: deps.controlsOnly,
      controlChannel: deps.controlChannel,
      fetch: deps.fetch,
      network: deps.network,
      opsPort,
    });
  } catch (error) {
    await paper?.close();
    closeStore();
    await releaseEarly();
    throw error;
  }

  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop requested'): Promise<void> => {
    stopping ??= (async () => {
      let stopped: EngineStop | undefined;
      try {
        stopped = await running.stop(reason);
        await paper?.close();
      } finally {
        // Each step on its own: a database or lock the disk will not let go of must not keep the stop from ending.
        closeStore();
        locks.release();
        const unfinished = stopped?.unfinished;
        const unrecorded = stopped?.unrecorded ? ` (not recorded in the audit log: ${stopped.unrecorded})` : '';
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
      opsUrl: running.opsUrl,
      schemaVersion: store.version,
      migrationsApplied: store.applied,
      simulator: running.simulator,
    }),
  );
  return {
    events,
    opsUrl: running.opsUrl,
    simulator: running.simulator,
    metrics: running.metrics,
    notifier: running.notifier,
    outages: running.outages,
    engine: running,
    store: { file, db: store.db, writes: running.writes },
    instanceId: instance,
    halted: () => halt?.error ?? null,
    stop,
    done,
  };
}
