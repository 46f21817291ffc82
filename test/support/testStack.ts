/**
 * The daemon's executor over the in-process simulator, wired as src/engine/trading.ts wires it: the
 * same handler set (kindSet.ts, filtered to the kinds a test names) and `createExecutor`, the real
 * Journal, AuditLog and TriggerOrders on a real SQLite file, the real RPC-guarded signer, and a
 * Trigger V2 session that logs in as the daemon does (lazily, at the first authenticated call).
 *
 * Everything runs on a ManualClock with seeded randomness. Because the database is a file, a test
 * can "crash": `crash()` stops the executor and closes the database, `restart()` starts a new process
 * on the same file, simulator and wallet. The returned stack also holds what a tick loop needs
 * (journal, audit, executor, the handler set's routes, the clients), so one can be started over it.
 *
 * `testWorld` is the same world with no process on it yet: for a test whose process is another
 * composition (the daemon's own, say) that opens the file itself.
 */
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterEach } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { parseDuration } from '../../src/config/duration.js';
import { DEFAULTS } from '../../src/config/schema.js';
import { createExecutor, type Executor } from '../../src/engine/executor/executor.js';
import type { IntentRoutes } from '../../src/engine/executor/intentKind.js';
import { createHandlerSet, type HandlerSet } from '../../src/engine/executor/kindSet.js';
import { createTriggerSession, type TriggerSession } from '../../src/jupiter/session.js';
import { type AuthedJupiterClient, createJupiterClient, type JupiterClient } from '../../src/jupiter/transport.js';
import { createRandom, type Random } from '../../src/random.js';
import { createSimulator, type Simulator } from '../../src/sim/simulator.js';
import type { GuardOptions } from '../../src/solana/guard.js';
import { createRpcGuardedSigner, type GuardedSigner } from '../../src/solana/guardedSigner.js';
import { createSolanaRpc, type SolanaRpc } from '../../src/solana/rpc.js';
import { fromSecretText, type Wallet } from '../../src/solana/wallet.js';
import { AuditLog } from '../../src/store/audit.js';
import type { Db } from '../../src/store/db.js';
import { Journal } from '../../src/store/journal.js';
import { openStore } from '../../src/store/migrate.js';
import { TriggerOrders } from '../../src/store/triggerOrders.js';
import type { IntentKind } from '../../src/strategies/intents.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../src/strategies/strategyLimits.js';
import { tempDir, track } from '../unit/store/helpers.js';
import { decimalsOf, USDC } from './mints.js';
import { type Recorded, recordingFetch, type SentRequest } from './simFetch.js';

/** The journal kinds of the daemon's handler set (src/engine/executor/kindSet.ts). */
export type StackKind =
  | 'swap'
  | 'sell-position'
  | 'partial-sell'
  | 'claim-position'
  | 'place-vault-order'
  | 'cancel-vault-order'
  | 'renew-vault-order'
  | 'patch-vault-order'
  | 'place-dca-vault-order';

/** What may differ from one process to the next on the same file. */
export interface ProcessOptions {
  /** The guard's limits (a low priority-fee cap, no prediction program…); the daemon's defaults otherwise. */
  readonly guard?: Partial<Omit<GuardOptions, 'wallet'>> | undefined;
  /** The executor's attempt and send bounds; its defaults otherwise. */
  readonly maxAttempts?: number | undefined;
  readonly sendsPerDrive?: number | undefined;
  /** The vault slippage cap (`guard.max_vault_slippage_bps`); the config's default otherwise. */
  readonly maxVaultSlippageBps?: number | undefined;
  /** Wraps what every client of this process talks through: faults the simulator cannot inject itself (a tampered answer). */
  readonly fetch?: ((inner: typeof globalThis.fetch) => typeof globalThis.fetch) | undefined;
}

/** The world every process of a test shares: simulator, clock, wallet and database file. */
export interface WorldOptions {
  /** Seeds the simulator and the clients' randomness. @default 'executor' */
  readonly seed?: string | undefined;
  /** What the wallet starts with. @default 2 SOL, 500 USDC */
  readonly funds?: { readonly sol?: bigint | undefined; readonly usdc?: bigint | undefined } | undefined;
  /** The simulator's paper wallet: prediction positions to sell and claim (20 YES of the NBA market, 30 NO of a crypto one). */
  readonly paperWallet?: boolean | undefined;
  /** Serve the simulator on 127.0.0.1 and talk to it over a real socket (what `sent` records is what went on the wire). */
  readonly http?: boolean | undefined;
}

export interface TestStackOptions extends ProcessOptions, WorldOptions {
  /** The intent kinds wired: exactly the daemon's handlers (and routes) for these. */
  readonly kinds: readonly StackKind[];
  /**
   * The decided intent kinds the executor's `take` journals, of those the wired kinds route: the
   * others are deferred as if unwired. A test whose decide loop must not renew, say. Every route otherwise.
   */
  readonly intents?: readonly IntentKind[] | undefined;
}

/** A world with no process on it: what any process on the file starts from. */
export interface TestWorld {
  readonly clock: ManualClock;
  readonly sim: Simulator;
  readonly wallet: Wallet;
  /** The SQLite file every process of this world opens. */
  readonly file: string;
}

/** One "process" over the world: database, clients, signer, executor, and what it sent. */
export interface TestStack extends TestWorld {
  readonly db: Db;
  readonly audit: AuditLog;
  readonly journal: Journal;
  readonly orders: TriggerOrders;
  readonly client: JupiterClient;
  /** The Trigger V2 session of this process (it logs in at the first authenticated call). */
  readonly session: TriggerSession;
  readonly authed: AuthedJupiterClient;
  readonly rpc: SolanaRpc;
  readonly signer: GuardedSigner;
  /** The handlers and routes wired (what a tick loop plans through). */
  readonly set: HandlerSet;
  readonly executor: Executor;
  /** What the mirror's order syncs take (with `audit` and `decimalsOf`: adoption on). */
  readonly sync: { orders: TriggerOrders; journal: Journal; clock: ManualClock; audit: AuditLog; decimalsOf: (mint: string) => number };
  /** Routes of the Jupiter exchanges this process finished, in order (`/trigger/v2/orders/price/{orderId}`). */
  readonly routes: string[];
  /** The same, with their method (`PATCH /trigger/v2/orders/price/{orderId}`). */
  readonly calls: string[];
  /** Every URL this process asked of the simulator (queries included), RPC too. */
  readonly urls: string[];
  /** Every request this process sent the simulator, with its JSON body. */
  readonly sent: SentRequest[];
  /** A process death: no further calls from this process, its database connection closed. */
  crash(): void;
  /** A new process on the same file (this one crashed first if it was not), with the same options but those given. */
  restart(options?: ProcessOptions): TestStack;
}

interface World extends TestWorld {
  readonly seed: string;
  /** The simulator's loopback URL, served at the first request, when the world talks HTTP. */
  readonly server: (() => Promise<string>) | undefined;
}

const servers: Array<Promise<{ close(): Promise<void> }>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(async (s) => (await s).close()));
});

/** The world starts at noon, 1 January 2026, with a fixed test wallet. */
export function testStack(options: TestStackOptions): TestStack {
  return boot(world(options), { kinds: options.kinds, intents: options.intents }, options);
}

/** The same world as {@link testStack}'s, no process started on it. */
export function testWorld(options: WorldOptions = {}): TestWorld {
  return world(options);
}

function world(options: WorldOptions): World {
  const seed = options.seed ?? 'executor';
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const sim = createSimulator({ clock, seed });
  const wallet = fromSecretText(bs58.encode(Keypair.fromSeed(new Uint8Array(32).fill(42)).secretKey));
  const sol = options.funds?.sol ?? 2_000_000_000n;
  if (sol > 0n) sim.control.fund(wallet.address, sol);
  sim.control.fund(wallet.address, options.funds?.usdc ?? 500_000_000n, USDC);
  if (options.paperWallet === true) sim.control.paperWallet(wallet.address);
  let listening: Promise<{ url: string; close(): Promise<void> }> | undefined;
  const server =
    options.http === true
      ? async (): Promise<string> => {
          if (listening === undefined) {
            listening = sim.listen();
            servers.push(listening);
          }
          return (await listening).url;
        }
      : undefined;
  return { clock, sim, wallet, file: join(tempDir(), 'jupbot-paper.sqlite'), seed, server };
}

/** What a process wires of the daemon's handler set: the same for every process of the world. */
type Wiring = Pick<TestStackOptions, 'kinds' | 'intents'>;

function boot(world: World, wiring: Wiring, options: ProcessOptions): TestStack {
  const { clock, sim, wallet, file, seed } = world;
  const { db } = openStore(file, { clock });
  track(db);
  const audit = new AuditLog(db, clock);
  const journal = new Journal(db, audit, clock);
  const orders = new TriggerOrders(db, audit);
  const recorded: Recorded = { urls: [], sent: [] };
  const inner = recordingFetch(sim, recorded, world.server);
  const fetch = options.fetch?.(inner) ?? inner;
  const random = createRandom(seed);
  const client = createJupiterClient({ baseUrl: 'http://sim.local', apiKey: 'test-api-key', requestsPerSecond: 10, clock, random, fetch });
  const routes: string[] = [];
  const calls: string[] = [];
  client.events.on('request', (e) => {
    routes.push(e.route);
    calls.push(`${e.method} ${e.route}`);
  });
  const rpc = createSolanaRpc({ url: 'http://sim.local/rpc?api-key=secret-rpc-key', clock, fetch });
  const signer = createRpcGuardedSigner({ wallet, audit, rpc, clock, ...options.guard });
  const session = triggerSession({ client, wallet, signer, clock, random });
  const set = createHandlerSet({
    client,
    authed: session.authed,
    rpc,
    signer,
    journal,
    orders,
    clock,
    decimalsOf: (mint) => Promise.resolve(decimalsOf(mint)),
    maxVaultSlippageBps: options.maxVaultSlippageBps ?? DEFAULT_STRATEGY_LIMITS.maxVaultSlippageBps,
    kinds: wiring.kinds,
  });
  const executor = createExecutor({
    journal,
    db,
    audit,
    rpc,
    clock,
    handlers: set.handlers,
    routes: routesOf(set, wiring.intents),
    maxAttempts: options.maxAttempts,
    sendsPerDrive: options.sendsPerDrive,
  });
  const crash = (): void => {
    executor.stop();
    if (db.open) db.close();
  };
  return {
    clock,
    sim,
    wallet,
    file,
    db,
    audit,
    journal,
    orders,
    client,
    session,
    authed: session.authed,
    rpc,
    signer,
    set,
    executor,
    sync: { orders, journal, clock, audit, decimalsOf },
    routes,
    calls,
    urls: recorded.urls,
    sent: recorded.sent,
    crash,
    restart(next = {}) {
      crash();
      return boot(world, wiring, { ...options, ...next });
    },
  };
}

/** The set's routes, only those of `intents` when given. */
function routesOf(set: HandlerSet, intents: readonly IntentKind[] | undefined): IntentRoutes {
  return intents === undefined ? set.routes : new Map([...set.routes].filter(([kind]) => intents.includes(kind)));
}

/** The Trigger V2 login, as src/engine/engine.ts starts it (the config's refresh margin). */
function triggerSession(deps: { client: JupiterClient; wallet: Wallet; signer: GuardedSigner; clock: ManualClock; random: Random }): TriggerSession {
  return createTriggerSession({ ...deps, refreshMarginMs: parseDuration(DEFAULTS.refreshMargin) });
}
