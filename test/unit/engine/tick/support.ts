/**
 * The decide loop over a test stack (test/support/testStack.ts): the daemon's executor on the
 * in-process simulator, a ManualClock and a real SQLite file (so a "restart" is `stack.restart()`),
 * with real prices and balances feeds, the reconcile loop and the tick loop — what the engine wires
 * for these, minus the HTTP servers and the other feeds.
 *
 * The loop journals only the kinds the stack was built with: the executor's own `take` defers every
 * other kind, as the daemon's does for a kind it has no handler for.
 */
import { createBalancesFeed } from '../../../../src/engine/feeds/balances.js';
import { createPricesFeed } from '../../../../src/engine/feeds/prices.js';
import { startReconcileLoop } from '../../../../src/engine/reconcile.js';
import { decisionRecords } from '../../../../src/engine/tick/decisionRecords.js';
import { vaultOrderViews } from '../../../../src/engine/tick/vaultOrderViews.js';
import { startTickLoop, type TickEvents, type TickLoop } from '../../../../src/engine/tick/tickLoop.js';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import type { TestStack } from '../../../support/testStack.js';
import { load } from '../../strategies/helpers.js';

export const INTERVAL = 10_000;

export interface Running {
  stack: TestStack;
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

export interface TickOptions {
  ready?: Promise<unknown>;
  intervalMs?: number;
}

/**
 * Starts feeds, reconciliation and ticks on the stack. The tick loop starts once both feeds have a
 * value, unless `ready` (reconciliation's first pass by default) says otherwise.
 */
export async function run(stack: TestStack, loaded: ReadonlyMap<string, LoadedStrategy>, options: TickOptions = {}): Promise<Running> {
  const { clock } = stack;
  const intervalMs = options.intervalMs ?? INTERVAL;
  const abort = new AbortController();
  const pricesAbort = new AbortController();
  abort.signal.addEventListener('abort', () => pricesAbort.abort());
  const mints = (): string[] => [...loaded.values()].flatMap((s) => Object.values(s.tokens).map((t) => t?.mint ?? ''));
  const prices = createPricesFeed({ client: stack.client, clock, intervalMs, mints });
  const balances = createBalancesFeed({ rpc: stack.rpc, clock, wallet: stack.wallet.address, intervalMs });
  const first = Promise.all([prices.events.next('updated'), balances.events.next('updated')]);
  prices.start(pricesAbort.signal);
  balances.start(abort.signal);
  await first;
  const reconcile = startReconcileLoop({
    journal: stack.journal,
    executor: stack.executor,
    clock,
    audit: stack.audit,
    intervalMs: 30_000,
    signal: abort.signal,
  });
  const ticks = startTickLoop({
    clock,
    executor: stack.executor,
    records: decisionRecords(stack.db, stack.audit, clock),
    strategies: () => loaded,
    sources: () => ({ prices: prices.state(), balances: balances.state(), vaultOrders: vaultOrderViews(stack.db) }),
    refreshBalances: () => balances.pollSoon(),
    // As the composition root wires it: each price read wakes a tick; a balances read, one that waited for it.
    wakeOn: (wake) => prices.events.on('updated', wake),
    wakeOnRead: (read) => balances.events.on('updated', read),
    intervalMs,
    ready: options.ready ?? reconcile.ready,
    signal: abort.signal,
  });
  const seen: Running['seen'] = [];
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
export async function ticks(r: Running, n: number, intervalMs = INTERVAL): Promise<TickEvents['tick'][]> {
  const out: TickEvents['tick'][] = [];
  for (let i = 0; i < n; i++) {
    const next = r.ticks.events.next('tick');
    await r.stack.clock.advance(intervalMs);
    out.push(await next);
  }
  return out;
}

export function count(r: Running, name: keyof TickEvents): number {
  return r.seen.filter((e) => e.name === name).length;
}
