/**
 * The decide loop on the executor's test world: an in-process simulator on a ManualClock, a real
 * SQLite file (so a "restart" is a new stack on the same file), real prices and balances feeds, the
 * reconcile loop and the tick loop — everything the engine wires, minus the HTTP servers.
 */
import { createBalancesFeed } from '../../../../src/engine/feeds/balances.js';
import { createPricesFeed } from '../../../../src/engine/feeds/prices.js';
import { startReconcileLoop } from '../../../../src/engine/reconcile.js';
import type { Executor } from '../../../../src/engine/executor/executor.js';
import { createIntake } from '../../../../src/engine/executor/intake.js';
import { decisionRecords } from '../../../../src/engine/tick/decisionRecords.js';
import type { Clock } from '../../../../src/clock.js';
import { intentRoutes, type AnyIntentRoute, type IntentRoute, type IntentRoutes, planOf } from '../../../../src/engine/executor/intentKind.js';
import { swapRoute } from '../../../../src/engine/executor/swap/swapHandler.js';
import { vaultCancelPlan } from '../../../../src/engine/executor/vault/cancelVaultOrder.js';
import { vaultPlacePlan } from '../../../../src/engine/executor/vault/placeVaultOrder.js';
import { vaultOrderViews } from '../../../../src/engine/tick/vaultOrderViews.js';
import { startTickLoop, type TickEvents, type TickLoop } from '../../../../src/engine/tick/tickLoop.js';
import type { JupiterClient } from '../../../../src/jupiter/transport.js';
import type { SolanaRpc } from '../../../../src/solana/rpc.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { load } from '../../strategies/helpers.js';
import { type Stack, type World } from '../executor/support.js';

export const INTERVAL = 10_000;

const VAULT_ROUTES: readonly AnyIntentRoute[] = [
  { kind: 'place-vault-order', plan: vaultPlacePlan } satisfies IntentRoute<'place-vault-order'>,
  {
    kind: 'cancel-vault-order',
    plan: (intent) => (intent.family === 'price' ? vaultCancelPlan(intent) : undefined),
  } satisfies IntentRoute<'cancel-vault-order'>,
];

/** What the tick harness needs of a stack: the swap stack has it all; a vault stack supplies its client and rpc. */
export type TickParts = Pick<Stack, 'db' | 'audit' | 'journal' | 'executor'> & { client: JupiterClient; rpc: SolanaRpc };

export interface Running<S extends TickParts = Stack> {
  stack: S;
  ticks: TickLoop;
  /** Every tick-loop event, in order. */
  seen: { name: keyof TickEvents; payload: TickEvents[keyof TickEvents] }[];
  /** Stops the prices feed only: its last value then ages. */
  stopPrices(): void;
  /** Stops everything and closes the database (a process death after the work in hand). */
  stop(): Promise<void>;
}

export async function strategies(...texts: string[]): Promise<Map<string, LoadedStrategy>> {
  const loaded = await Promise.all(texts.map((text, i) => load(text, `s${i}.yaml`)));
  return new Map(loaded.map((s) => [s.name, s]));
}

/**
 * Boots a stack and starts feeds, reconciliation and ticks on it. The tick loop starts once both
 * feeds have a value, unless `ready` (reconciliation's first pass by default) says otherwise.
 */
export async function run(w: World, loaded: ReadonlyMap<string, LoadedStrategy>, options: TickOptions = {}): Promise<Running> {
  return await runOn(w, w.boot(), loaded, options);
}

export interface TickOptions {
  ready?: Promise<unknown>;
  intervalMs?: number;
  /** Wire the vault handlers into the tick loop (the stack's executor must have them). */
  vaultOrders?: boolean;
  /** Further routes (their handlers must be in the stack's executor). */
  routes?: readonly AnyIntentRoute[];
}

/** The same as {@link run}, on a stack the caller booted (a vault stack, say). */
export async function runOn<S extends TickParts>(
  w: World,
  stack: S,
  loaded: ReadonlyMap<string, LoadedStrategy>,
  options: TickOptions = {},
): Promise<Running<S>> {
  const intervalMs = options.intervalMs ?? INTERVAL;
  const abort = new AbortController();
  const pricesAbort = new AbortController();
  abort.signal.addEventListener('abort', () => pricesAbort.abort());
  const mints = (): string[] => [...loaded.values()].flatMap((s) => Object.values(s.tokens).map((t) => t?.mint ?? ''));
  const prices = createPricesFeed({ client: stack.client, clock: w.clock, intervalMs, mints });
  const balances = createBalancesFeed({ rpc: stack.rpc, clock: w.clock, wallet: w.wallet.address, intervalMs });
  const first = Promise.all([prices.events.next('updated'), balances.events.next('updated')]);
  prices.start(pricesAbort.signal);
  balances.start(abort.signal);
  await first;
  const reconcile = startReconcileLoop({
    journal: stack.journal,
    executor: stack.executor,
    clock: w.clock,
    audit: stack.audit,
    intervalMs: 30_000,
    signal: abort.signal,
  });
  const ticks = startTickLoop({
    clock: w.clock,
    executor: routed(stack, w.clock, intentRoutes(swapRoute, ...(options.vaultOrders ? VAULT_ROUTES : []), ...(options.routes ?? []))),
    records: decisionRecords(stack.db, stack.audit, w.clock),
    strategies: () => loaded,
    sources: () => ({ prices: prices.state(), balances: balances.state(), vaultOrders: vaultOrderViews(stack.db) }),
    refreshBalances: () => balances.pollSoon(),
    intervalMs,
    ready: options.ready ?? reconcile.ready,
    signal: abort.signal,
  });
  const seen: Running<S>['seen'] = [];
  for (const name of ['tick', 'planned', 'executed', 'deferred'] as const) ticks.events.on(name, (payload) => seen.push({ name, payload }));
  // The first tick runs as soon as reconciliation is ready, without the clock moving.
  if (options.ready === undefined) await ticks.events.next('tick');
  return {
    stack,
    ticks,
    seen,
    stopPrices: () => pricesAbort.abort(),
    async stop() {
      stack.executor.stop();
      abort.abort();
      await Promise.allSettled([ticks.done, reconcile.done, prices.done, balances.done]);
      stack.db.close();
    },
  };
}

/** Advances the clock one interval at a time until `n` more ticks have run; returns their payloads. */
export async function ticks(w: World, r: Running<TickParts>, n: number, intervalMs = INTERVAL): Promise<TickEvents['tick'][]> {
  const out: TickEvents['tick'][] = [];
  for (let i = 0; i < n; i++) {
    const next = r.ticks.events.next('tick');
    await w.clock.advance(intervalMs);
    out.push(await next);
  }
  return out;
}

export function count(r: Running, name: keyof TickEvents): number {
  return r.seen.filter((e) => e.name === name).length;
}

/** The stack's executor, taking the given intent kinds (a test chooses which kinds its tick loop may journal). */
function routed(stack: TickParts, clock: Clock, routes: IntentRoutes): Executor {
  const { executor, journal, db, audit } = stack;
  const intake = createIntake({
    journal,
    db,
    audit,
    clock,
    planOf: (intent) => planOf(routes, intent),
    handles: (kind) => routes.has(kind),
    plan: (input) => journal.plan(input),
    drive: (id) => executor.drive(id),
    stopped: () => executor.stopped,
  });
  return {
    ...intake,
    events: executor.events,
    plan: (input) => executor.plan(input),
    execute: (input) => executor.execute(input),
    drive: (id) => executor.drive(id),
    recoverFills: () => executor.recoverFills(),
    stop: () => executor.stop(),
    get stopped() {
      return executor.stopped;
    },
  };
}
