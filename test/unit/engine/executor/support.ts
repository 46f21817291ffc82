/**
 * An executor wired to an in-process simulator on a ManualClock, over a real SQLite file, so a test
 * can "crash" (stop the executor, close the database) and start a new one on the same file.
 */
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { ManualClock } from '../../../../src/clock.js';
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import { createSwapHandler } from '../../../../src/engine/executor/swap/swapHandler.js';
import { swapPlan } from '../../../../src/engine/executor/swap/swapHandler.js';
import { createJupiterClient, type JupiterClient } from '../../../../src/jupiter/index.js';
import { createRandom } from '../../../../src/random.js';
import { createSimulator, type Simulator } from '../../../../src/sim/simulator.js';
import type { GuardOptions } from '../../../../src/solana/guard.js';
import { createRpcGuardedSigner } from '../../../../src/solana/guardedSigner.js';
import { createSolanaRpc, type SolanaRpc } from '../../../../src/solana/rpc.js';
import { fromSecretText, type Wallet } from '../../../../src/solana/wallet.js';
import type { SwapIntent } from '../../../../src/strategies/intents.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { Journal, type PlanInput } from '../../../../src/store/journal.js';
import { openStore } from '../../../../src/store/migrate.js';
import { tempDir, track } from '../../store/helpers.js';

export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const DECIMALS: Record<string, number> = { [SOL]: 9, [USDC]: 6 };

/** fetch over `sim.dispatch`, in-process: no sockets, same answers as over HTTP (resets included). */
export function simFetch(sim: Simulator): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    if (init?.signal?.aborted) throw init.signal.reason;
    const answer = await sim.dispatch({
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      rawBody: typeof init?.body === 'string' ? init.body : '',
    });
    if (answer.reset) throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}

/** A request the simulator received: method, path and the JSON body as sent (undefined when none). */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/**
 * {@link simFetch} that also records every request it hands the simulator, in order. With `overHttp`
 * (the URL of `sim.listen()`, on 127.0.0.1) each request goes over a real socket instead, so what is
 * recorded is what went on the wire.
 */
export function recordingFetch(sim: Simulator, overHttp?: string): { fetch: typeof globalThis.fetch; sent: SentRequest[] } {
  const inner = simFetch(sim);
  const sent: SentRequest[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const raw = typeof init?.body === 'string' ? init.body : '';
    sent.push({ method: init?.method ?? 'GET', path: url.pathname, body: raw === '' ? undefined : (JSON.parse(raw) as unknown) });
    return overHttp === undefined ? inner(input, init) : globalThis.fetch(`${overHttp}${url.pathname}${url.search}`, init);
  };
  return { fetch, sent };
}

/** The simulator listening on a loopback port, with a {@link recordingFetch} over it; `close` stops the server. */
export async function recordingOverHttp(sim: Simulator): Promise<{ fetch: typeof globalThis.fetch; sent: SentRequest[]; close: () => Promise<void> }> {
  const server = await sim.listen();
  return { ...recordingFetch(sim, server.url), close: () => server.close() };
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
      const executor = createExecutor({ journal, rpc, clock, handlers: [handler], maxAttempts: options.maxAttempts });
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

/** A DCA run: 25 USDC → SOL, decided at noon with the price that fired it. */
export function dcaIntent(overrides: Partial<SwapIntent> = {}, trigger = '2026-01-01T12:00:00.000Z'): SwapIntent {
  const key = { strategy: 'dca-sol', version: 'ab'.repeat(32), rule: 'run', trigger };
  return {
    kind: 'swap',
    key,
    id: `${key.strategy}/${key.version.slice(0, 12)}/${key.rule}/${key.trigger}`,
    reason: 'scheduled DCA run',
    evidence: { scheduledAt: trigger, solUsd: '187.25' },
    inputMint: USDC,
    inputDecimals: 6,
    outputMint: SOL,
    amount: 25_000_000n,
    ...overrides,
  };
}

export const plan = (intent: SwapIntent): PlanInput => swapPlan(intent);

/** Action kinds of the audit log for one intent, in order. */
export function actionKinds(db: Db, intentId: string): string[] {
  return (db.prepare('SELECT kind FROM actions WHERE intent_id = ? ORDER BY id').all(intentId) as { kind: string }[]).map((r) => r.kind);
}

export function fills(
  db: Db,
  intentId: string,
): { signature: string; idx: number; in_amount: string; out_amount: string; in_mint: string; out_mint: string }[] {
  return db.prepare('SELECT * FROM fills WHERE intent_id = ? ORDER BY id').all(intentId) as never;
}
