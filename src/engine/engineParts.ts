/**
 * What the daemon hands the composition root (engine.ts), and what the root hands back: the running
 * parts, as the daemon, tests and benches reach them, and the stop.
 */
import type { Clock } from '../clock.js';
import type { EngineControl } from '../control/engineControl.js';
import type { Config } from '../config/config.js';
import type { DaemonEvents } from '../daemonEvents.js';
import type { Logger } from '../ops/log.js';
import type { Redactor } from '../ops/redact.js';
import type { PaperWorld } from '../paper/paperWorld.js';
import type { Random } from '../random.js';
import type { Wallet } from '../solana/wallet.js';
import type { WalletError } from '../solana/walletError.js';
import type { WatchOnlyWallet } from '../solana/watchOnlyWallet.js';
import type { Db } from '../store/db.js';
import type { TypedEmitter } from '../typedEmitter.js';
import type { JupiterClient } from '../jupiter/transport.js';
import type { TriggerSession } from '../jupiter/session.js';
import type { Metrics } from '../ops/metrics.js';
import type { Notifier } from '../ops/notify.js';
import type { BoundOpsPort } from '../ops/opsPort.js';
import type { OutageMonitor } from '../ops/outage.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { Protections } from '../protections/protections.js';
import type { AuditLog } from '../store/audit.js';
import type { Journal } from '../store/journal.js';
import type { WriteHealth } from '../store/writeHealth.js';
import type { EngineAreas } from './areas/engineAreas.js';
import type { Executor } from './executor/executor.js';
import type { FeedSet } from './feeds/feedSet.js';
import type { Poller } from './feeds/poller.js';
import type { WalletHistoryRead } from './sharing/walletHistory.js';
import type { StrategyWatcher } from './strategyWatcher.js';
import type { TickLoop } from './tick/tickLoop.js';
import type { UnfinishedIntents } from './unfinishedIntents.js';
import type { RosterPublisher } from '../fleet/rosterPublisher.js';

export interface EngineInputs {
  readonly config: Config;
  readonly clock: Clock;
  readonly random: Random;
  readonly log: Logger;
  readonly redactor: Redactor;
  /** The daemon's open, migrated database, its file and what the migration found and did. */
  readonly store: { readonly db: Db; readonly file: string; readonly version: number; readonly applied: readonly number[] };
  /**
   * The wallet, loaded (with every check, its secret registered for scrubbing) and locked by the
   * daemon; in rehearsal mode the watched address alone, which cannot sign.
   */
  readonly wallet: Wallet | WatchOnlyWallet;
  /** The data directory's instance id (store/instanceId.ts), named in logs, alerts and the audit log. */
  readonly instanceId: string;
  /** Paper mode's world (the Jupiter API root and RPC, and the wallet's funding); null in live and rehearsal mode. */
  readonly paper: PaperWorld | null;
  /** The daemon's events: the audit log's actions are forwarded to them as they are written. */
  readonly events: TypedEmitter<DaemonEvents>;
  /**
   * Someone else trades the wallet (engine/sharing/walletSharing.ts): new intents have already been
   * refused; the daemon stops and ends with `error`. `summary` names the evidence in a few words.
   */
  readonly onWalletShared?: ((error: WalletError, summary: string) => void) | undefined;
  /** Take only the operator's control intents; no strategy decides (a one-shot `halt --cancel-orders` with no daemon running). @default false */
  readonly controlsOnly?: boolean | undefined;
  /** Listen on the control socket (src/control/controlServer.ts). @default true */
  readonly controlChannel?: boolean | undefined;
  /** Watch the wallet's history for trades this daemon did not make (unless `wallet.shared`). A backtest does not. @default true */
  readonly watchWallet?: boolean | undefined;
  /** For webhook notifications. @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** How the Jupiter client and the RPC reach their servers (a backtest answers in process). @default globalThis.fetch */
  readonly network?: typeof globalThis.fetch | undefined;
  /** The ops socket, bound by the daemon before anything was called (ops/opsPort.ts). @default bound when the server starts */
  readonly opsPort?: BoundOpsPort | undefined;
}

/** How a stop ended: what it left for the next start, and why the stop could not be recorded (else null). */
export interface EngineStop {
  readonly unfinished: UnfinishedIntents;
  /** The disk refused the `daemon.stopped` row (full, read-only): the fault's message. */
  readonly unrecorded: string | null;
}

/** Everything that runs between the daemon's start and stop. */
export interface Engine {
  readonly wallet: string;
  readonly client: JupiterClient;
  /** The Trigger V2 login; null in a rehearsal, which holds no key to log in with. */
  readonly session: TriggerSession | null;
  readonly strategies: StrategyWatcher;
  /** Every feed, the balances feed included. */
  readonly feeds: FeedSet;
  /** The API areas: what the strategies need, what the key may use (engine/areas/). */
  readonly areas: EngineAreas;
  /** The account-wide protections (config `protections:`): what tripped, `clear(name)` for an operator's resume. */
  readonly protections: Protections;
  /** The parts that move money: the journal, the RPC it sends through, the executor and the decide loop. */
  readonly trading: { readonly journal: Journal; readonly rpc: SolanaRpc; readonly executor: Executor; readonly ticks: TickLoop };
  /** The wallet's transactions, judged for trades this daemon did not make; null with `wallet.shared: true`. */
  readonly walletHistory: Poller<WalletHistoryRead> | null;
  /** The operator's halt, pauses and cancels (src/control/). */
  readonly control: EngineControl;
  /** The Prometheus registry behind /metrics; the client, the feeds and the audit log's actions report to it. */
  readonly metrics: Metrics;
  /** Webhook notifications (`notify.webhooks`); fire-and-forget, never throws. */
  readonly notifier: Notifier;
  /** "Down longer than notify.down_after" alerts, one per outage: feeds, the login and the database report here. */
  readonly outages: OutageMonitor;
  /** The audit log every part writes through; its `appended` events are what reports, metrics and the daemon's events read. */
  readonly audit: AuditLog;
  /** Whether the database's writes fail (store/writeHealth.ts). */
  readonly writes: WriteHealth;
  /** Base URL of the operations server (/healthz, /readyz, /metrics, /status). */
  readonly opsUrl: string;
  /** This daemon's entry in the fleet's roster (config `fleet.redis`); null without a fleet. */
  readonly roster: RosterPublisher | null;
  /** Paper mode: the embedded simulator's base URL and seed; null in live mode. */
  readonly simulator: { readonly url: string; readonly seed: string } | null;
  /** JSON-safe state for `/status`. */
  status(): Record<string, unknown>;
  /**
   * Stops taking work and waits for the work in hand, tells the webhooks, closes the operations
   * server and records the stop in the audit log. Idempotent; the database stays open.
   */
  stop(reason: string): Promise<EngineStop>;
}
