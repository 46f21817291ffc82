/**
 * The rehearsal's vault side on a desk: a migrated database with an opened ledger, the rehearsal
 * handler set under a real executor, and the rehearsal's keeper fed by a prices feed the test drives
 * (`prices()`), all on a ManualClock. Jupiter is a stub that answers `GET /swap/v2/order` with what
 * the test says (`answer`), records every request it gets, and can hold an answer until released,
 * so a test can act while a quote is in flight. No network, no sleeps.
 */
import { ManualClock } from '../../../../src/clock.js';
import { createExecutor, type Executor } from '../../../../src/engine/executor/executor.js';
import { type CallHandler, isCallHandler } from '../../../../src/engine/executor/handler.js';
import type { FeedEvents, Poller } from '../../../../src/engine/feeds/poller.js';
import type { PriceMap } from '../../../../src/engine/feeds/prices.js';
import { createJupiterClient } from '../../../../src/jupiter/index.js';
import { createRandom } from '../../../../src/random.js';
import { ledgerBalances, recordOpening } from '../../../../src/rehearsal/ledger.js';
import { createRehearsalHandlerSet } from '../../../../src/rehearsal/rehearsalKindSet.js';
import { startRehearsalOrders, type RehearsalOrders } from '../../../../src/rehearsal/rehearsalOrders.js';
import type { SolanaRpc } from '../../../../src/solana/rpc.js';
import type { TransactionGuard } from '../../../../src/solana/guardedSigner.js';
import { AuditLog } from '../../../../src/store/audit.js';
import type { Db } from '../../../../src/store/db.js';
import { type IntentRow, Journal, type PlanInput } from '../../../../src/store/journal.js';
import { TriggerOrders } from '../../../../src/store/triggerOrders.js';
import { TypedEmitter } from '../../../../src/typedEmitter.js';
import { freshStore } from '../../store/helpers.js';

export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
export const DECIMALS: Readonly<Record<string, number>> = { [SOL]: 9, [USDC]: 6, [JUP]: 6 };
export const WALLET = '8fr7SxZ1oC36wgfisq7CxUbqkHGQrSJGyPxmPafXjPtn';
export const START = Date.UTC(2026, 10, 2, 8, 0);
/** The opening balances: 10 SOL, 1000 USDC. */
export const OPENING = { [SOL]: 10_000_000_000n, [USDC]: 1_000_000_000n } as const;
/** The base fee a rehearsed deposit or withdrawal costs, in lamports. */
export const FEE = 5_000n;

export interface QuoteRequest {
  readonly query: Readonly<Record<string, string>>;
}

/** What the stub answers a quote: the output amount, or an HTTP status to refuse it with. */
export type Answer = { readonly outAmount: bigint } | { readonly status: number };

export interface Desk {
  readonly db: Db;
  readonly clock: ManualClock;
  readonly journal: Journal;
  readonly executor: Executor;
  readonly keeper: RehearsalOrders;
  /** Every quote request Jupiter got, in order. */
  readonly requests: QuoteRequest[];
  /** How the next quotes are answered (default: 1:1 in whole tokens at $1 each, which tests replace). */
  answer: (query: Readonly<Record<string, string>>) => Answer;
  /** Holds every quote answer until the returned release is called. */
  hold(): () => void;
  /** A price update of the prices feed (USD by mint), then waits until the keeper has judged it. */
  prices(usd: Readonly<Record<string, number>>): Promise<void>;
  /** The rehearsal handler of journal kind `kind`, to call it as the executor would. */
  handler(kind: string): CallHandler;
  /** Journals and drives an intent through the rehearsal handlers. */
  execute(input: PlanInput): Promise<IntentRow>;
  ledger(mint: string): bigint;
  /** The `kind` actions, oldest first, with their data parsed. */
  actions(kind: string): { intentId: string | null; data: Record<string, unknown> }[];
  stop(): Promise<void>;
}

export function rehearsalDesk(options: { readonly maxVaultSlippageBps?: number; readonly opening?: Readonly<Record<string, bigint>> } = {}): Desk {
  const { db } = freshStore();
  const clock = new ManualClock(START);
  const audit = new AuditLog(db, clock);
  const journal = new Journal(db, audit, clock);
  const opening = options.opening ?? OPENING;
  recordOpening(
    db,
    audit,
    'config',
    Object.entries(opening).map(([mint, amount]) => ({ mint, amount, decimals: DECIMALS[mint] ?? 0 })),
    clock.now(),
  );
  const requests: QuoteRequest[] = [];
  let held: Promise<void> | null = null;
  const desk: Desk = {
    db,
    clock,
    journal,
    requests,
    answer: (query) => ({ outAmount: BigInt(query['amount'] ?? '0') }),
    hold() {
      let release = (): void => undefined;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    executor: undefined as unknown as Executor,
    keeper: undefined as unknown as RehearsalOrders,
    prices: () => Promise.resolve(),
    handler: () => {
      throw new Error('not built yet');
    },
    execute: (input) => desk.executor.execute(input),
    ledger: (mint) => ledgerBalances(db).get(mint) ?? 0n,
    actions: (kind) =>
      (db.prepare('SELECT intent_id, data FROM actions WHERE kind = ? ORDER BY id').all(kind) as { intent_id: string | null; data: string }[]).map((r) => ({
        intentId: r.intent_id,
        data: JSON.parse(r.data) as Record<string, unknown>,
      })),
    stop: () => Promise.resolve(),
  };
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const query = Object.fromEntries(url.searchParams);
    requests.push({ query });
    if (held !== null) await held;
    if (url.pathname !== '/swap/v2/order') return new Response('{"error":"not here"}', { status: 404 });
    const answer = desk.answer(query);
    if ('status' in answer) return new Response(JSON.stringify({ error: 'refused' }), { status: answer.status });
    const body = {
      inputMint: query['inputMint'],
      outputMint: query['outputMint'],
      inAmount: query['amount'],
      outAmount: answer.outAmount.toString(),
      requestId: `quote-${requests.length}`,
      router: 'metis',
      transaction: null,
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const client = createJupiterClient({
    baseUrl: 'http://jupiter.test',
    apiKey: 'desk-test-key',
    requestsPerSecond: 100,
    clock,
    random: createRandom('desk'),
    fetch,
  });
  const guard = { address: WALLET } as unknown as TransactionGuard;
  const set = createRehearsalHandlerSet({
    client,
    guard,
    db,
    journal,
    orders: new TriggerOrders(db, audit),
    audit,
    clock,
    decimalsOf: (mint) => Promise.resolve(DECIMALS[mint] ?? 0),
    swap: { excludeRouters: [], maxSlippageBps: 300 },
    maxVaultSlippageBps: options.maxVaultSlippageBps ?? 300,
  });
  const executor = createExecutor({ journal, db, audit, rpc: {} as SolanaRpc, clock, handlers: set.handlers, routes: set.routes });
  const events = new TypedEmitter<FeedEvents<PriceMap>>();
  const keeper = startRehearsalOrders({ db, journal, audit, client, clock, prices: { events } as unknown as Poller<PriceMap> });
  return Object.assign(desk, {
    executor,
    keeper,
    handler(kind: string): CallHandler {
      const found = set.handlers.find((h) => h.kind === kind);
      if (found === undefined || !isCallHandler(found)) throw new Error(`no rehearsal call handler for ${kind}`);
      return found;
    },
    async prices(usd: Readonly<Record<string, number>>) {
      const value: PriceMap = new Map(
        Object.entries(usd).map(([mint, usdPrice]) => [mint, { mint, symbol: mint.slice(0, 4), decimals: DECIMALS[mint] ?? 0, usdPrice, priceBlockId: null }]),
      );
      events.emit('updated', { feed: 'prices', value, at: clock.now(), durationMs: 0 });
      await keeper.idle();
    },
    async stop() {
      executor.stop();
      await keeper.stop();
    },
  });
}

/** `place-vault-order` params of an OCO selling `amount` lamports of SOL for USDC. */
export function ocoParams(amount: bigint, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderType: 'oco',
    inputMint: SOL,
    inputDecimals: 9,
    outputMint: USDC,
    inputAmount: amount.toString(),
    triggerMint: SOL,
    tpPriceUsd: '180',
    slPriceUsd: '135',
    tpSlippageBps: 50,
    slSlippageBps: 100,
    expiresAt: START + 7 * 86_400_000,
    ...extra,
  };
}

/** A journal entry of `kind` for the desk's one strategy. */
export function entry(id: string, kind: string, params: Record<string, unknown>): PlanInput {
  return { id: `desk/v1/${id}`, kind, strategy: 'desk', rule: id, params };
}

/** Three hourly rounds of 20 USDC into JUP. */
export function dcaParams(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderType: 'time_based',
    inputMint: USDC,
    inputDecimals: 6,
    outputMint: JUP,
    inputAmount: '60000000',
    orderCount: 3,
    intervalSeconds: 3600,
    ...extra,
  };
}
