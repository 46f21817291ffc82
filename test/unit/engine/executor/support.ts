/**
 * A swap executor wired by hand over the in-process simulator, for the tick loop's tests only: the
 * executor tests run the daemon's own wiring (test/support/testStack.ts), and the tick tests are
 * to move onto it too, when this file goes.
 */
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { ManualClock } from '../../../../src/clock.js';
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import { createSwapHandler } from '../../../../src/engine/executor/swap/swapHandler.js';
import { createJupiterClient, type JupiterClient } from '../../../../src/jupiter/index.js';
import { createRandom } from '../../../../src/random.js';
import { createSimulator, type Simulator } from '../../../../src/sim/simulator.js';
import type { GuardOptions } from '../../../../src/solana/guard.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc, type SolanaRpc } from '../../../../src/solana/rpc.js';
import { fromSecretText, type Wallet } from '../../../../src/solana/wallet.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { tempDir, track } from '../../store/helpers.js';
import { SOL, USDC } from '../../../support/mints.js';
import { type Recorded, recordingFetch, type SentRequest, simFetch } from '../../../support/simFetch.js';

export { SOL, USDC, simFetch, type SentRequest };

const DECIMALS: Record<string, number> = { [SOL]: 9, [USDC]: 6 };

/** The simulator listening on a loopback port, every request recorded on the way there; `close` stops the server. */
export async function recordingOverHttp(sim: Simulator): Promise<{ fetch: typeof globalThis.fetch; sent: SentRequest[]; close: () => Promise<void> }> {
  const server = await sim.listen();
  const recorded: Recorded = { urls: [], sent: [] };
  return { fetch: recordingFetch(sim, recorded, () => Promise.resolve(server.url)), sent: recorded.sent, close: () => server.close() };
}

/** One "process": database connection, clients, signer, executor. */
export interface Stack {
  db: Db;
  audit: AuditLog;
  journal: Journal;
  client: JupiterClient;
  rpc: SolanaRpc;
  executor: Executor;
  /** Routes of finished Jupiter exchanges, in order. */
  routes: string[];
  /** Every URL asked of the simulator, in order (queries included). */
  urls: string[];
}

export interface World {
  clock: ManualClock;
  sim: Simulator;
  wallet: Wallet;
  file: string;
  /** Starts a stack on the database file (a new process after a crash). */
  boot(options?: { guard?: Partial<Omit<GuardOptions, 'wallet'>>; maxAttempts?: number }): Stack;
  /** Distinct swap transactions the simulator's ledger applied for our wallet. */
  swapsLanded(): string[];
}

export function world(seed = 'executor', funds: { sol?: bigint; usdc?: bigint } = {}): World {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const sim = createSimulator({ clock, seed });
  const keypair = Keypair.fromSeed(new Uint8Array(32).fill(42));
  const wallet = fromSecretText(bs58.encode(keypair.secretKey));
  if ((funds.sol ?? 2_000_000_000n) > 0n) sim.control.fund(wallet.address, funds.sol ?? 2_000_000_000n);
  sim.control.fund(wallet.address, funds.usdc ?? 500_000_000n, USDC);
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  return {
    clock,
    sim,
    wallet,
    file,
    boot(options = {}) {
      const { db } = openStore(file, { clock });
      track(db);
      const audit = new AuditLog(db, clock);
      const journal = new Journal(db, audit, clock);
      const urls: string[] = [];
      const inner = simFetch(sim);
      const fetch: typeof globalThis.fetch = (input, init) => {
        urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        return inner(input, init);
      };
      const client = createJupiterClient({
        baseUrl: 'http://sim.local',
        apiKey: 'executor-test-key',
        requestsPerSecond: 10,
        clock,
        random: createRandom(seed),
        fetch,
      });
      const routes: string[] = [];
      client.events.on('request', (e) => routes.push(e.route));
      const rpc = createSolanaRpc({ url: 'http://sim.local/rpc?api-key=secret-rpc-key', clock, fetch });
      const signer = createRpcGuardedSigner({ wallet, audit, rpc, clock, ...options.guard });
      const handler = createSwapHandler({ client, rpc, signer, clock, decimalsOf: (mint) => DECIMALS[mint] ?? 6 });
      const executor = createExecutor({ journal, db, audit, rpc, clock, handlers: [handler], maxAttempts: options.maxAttempts });
      return { db, audit, journal, client, rpc, executor, routes, urls };
    },
    swapsLanded() {
      const refs = sim.control
        .dumpLedger()
        .entries.filter((e) => e.reason === 'swap' && e.wallet === wallet.address)
        .map((e) => e.ref);
      return [...new Set(refs)];
    },
  };
}
