/**
 * The decide loop: snapshot → decide → take. Once reconciliation's first pass has settled, a tick
 * runs each time a feed a decision waits for publishes a read (prices, so a stop sees a price at
 * most one poll old; the prediction feeds: scores, markets, positions), and on the injected clock
 * 1.5 × `intervalMs` after the last one for the time-based rules. Each tick builds one snapshot from
 * the feeds and, for every loaded strategy, calls decide() and hands each intent to the executor
 * (`executor.take`: the route, the attempts, deferral and the write-ahead drive are the executor's,
 * executor/intake.ts).
 *
 * Ticks never overlap: intents are driven inside the tick, and the next tick waits for them. Every
 * executed intent may move balances (a swap, a deposit, a withdrawal, a sale), so they must be read
 * again before anything is decided on them: the strategies after the one that acted wait for the
 * next tick.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../ops/log.js';
import { decide } from '../../strategies/decide.js';
import type { Hold, Intent } from '../../strategies/intents.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import { TypedEmitter } from '../../typedEmitter.js';
import type { Executor } from '../executor/executor.js';
import type { Taken } from '../executor/intake.js';
import { buildSnapshot, type SnapshotSources } from './buildSnapshot.js';
import type { DecisionRecords } from './decisionRecords.js';
import { armedRules, type StrategyHealth } from './ruleHealth.js';

export interface TickEvents {
  /** One tick ran. `skipped` says why nothing was decided (no fresh balances), else null. */
  tick: { readonly at: number; readonly strategies: number; readonly intents: number; readonly holds: number; readonly skipped: string | null };
  /** One strategy's decision in a tick: how many intents, and the holds with their reasons. */
  decided: { readonly strategy: string; readonly intents: number; readonly holds: readonly Hold[] };
  /** An intent was journaled by this tick (`created` false: it was already there). */
  planned: { readonly intentId: string; readonly strategy: string; readonly created: boolean };
  /** The executor drove an intent as far as it goes now. */
  executed: { readonly intentId: string; readonly strategy: string; readonly state: string };
  /** An intent of a kind with no handler yet, recorded (first time this id is seen). */
  deferred: { readonly intentId: string; readonly strategy: string; readonly kind: string; readonly reason: string };
}

export interface TickLoopOptions {
  readonly clock: Clock;
  /** Takes each decided intent: its route, attempts, deferral and drive are the executor's (executor/intake.ts). */
  readonly executor: Executor;
  /** Each strategy's progress and memory, the rules' health, the loop's failures (decisionRecords.ts). */
  readonly records: DecisionRecords;
  readonly strategies: () => ReadonlyMap<string, LoadedStrategy>;
  /** The feeds' states, read at each tick. */
  readonly sources: () => SnapshotSources;
  /**
   * Asks the balances feed to poll now (after a swap); returns the polls it has begun so far, so the
   * next decision waits for a read numbered above it (the feed's `pollSoon()`).
   */
  readonly refreshBalances?: (() => number) | undefined;
  /**
   * Subscribes `wake` to what a decision waits for (a read published by the prices feed or a
   * prediction feed); returns the unsubscribe. A tick runs at once after each (never two at a time).
   */
  readonly wakeOn?: ((wake: () => void) => () => void) | undefined;
  /** Subscribes to the reads a skipped tick waits for (fresh balances): they wake it only after a skip. */
  readonly wakeOnRead?: ((read: () => void) => () => void) | undefined;
  /**
   * The feeds' poll: without a wake for 1.5 × this, a tick runs anyway, for the time-based rules (a
   * DCA run's instant, a retry's backoff, an order's renewal window, a game clock).
   */
  readonly intervalMs: number;
  /** Reconciliation's first pass: no tick before it settles. */
  readonly ready: Promise<unknown>;
  /**
   * Why a strategy may not decide now (an API area it needs is off for this key: engine/areas/), else
   * null; and why vault orders may not be acted on (the trigger area is off), else null. @default never
   */
  readonly paused?: { strategy(strategy: LoadedStrategy): string | null; vaultOrders(): string | null } | undefined;
  /**
   * What the operator's controls ask for now (src/control/: a halt's cancels and sales, a removed
   * strategy's cancels), each with the strategy it is attributed to: taken before the strategies
   * decide, even while they are halted or paused. @default none
   */
  readonly controls?: (() => readonly { readonly strategy: string; readonly intent: Intent }[]) | undefined;
  readonly signal: AbortSignal;
  readonly log?: Logger | undefined;
}

export interface TickStatus {
  readonly ticks: number;
  readonly lastTickAt: number | null;
  readonly lastSkipped: string | null;
  /** Why the loop never started (reconciliation failed), else null. */
  readonly blocked: string | null;
  /** Intents this process journaled (a restart finding its own rows again does not count them twice). */
  readonly planned: number;
  /** Intents of kinds without a handler, by kind, recorded and not acted on. */
  readonly deferred: Readonly<Record<string, number>>;
  /** Each strategy's rules (waiting, acting, retrying, failed, and why) and whether it is degraded. */
  readonly strategies: Readonly<Record<string, StrategyHealth>>;
}

export interface TickLoop {
  readonly events: TypedEmitter<TickEvents>;
  /** One tick now (tests; the loop calls it on its interval). Never runs two at once. */
  tick(): Promise<void>;
  status(): TickStatus;
  /** Settles when the loop has stopped (signal aborted), after the tick in hand. */
  readonly done: Promise<void>;
}

export function startTickLoop(options: TickLoopOptions): TickLoop {
  const { clock, executor, records, log, signal } = options;
  const { memory, health } = records;
  const events = new TypedEmitter<TickEvents>();
  /** By strategy: the `logOnce` holds (rule/key) of its last decision, already logged. */
  const noticed = new Map<string, ReadonlySet<string>>();
  let ticks = 0;
  let lastTickAt: number | null = null;
  let lastSkipped: string | null = null;
  let planned = 0;
  /** Balances polls begun before an intent last may have moved them: a decision waits for a later one. */
  let readsBeforeMove = 0;
  /** The strategy that acted last (names order the loop), for the round robin. */
  let lastActed = '';
  let running: Promise<void> | undefined;
  let blocked: string | null = null;

  /** Logs each `logOnce` hold the first time a decision of `strategy` has it (again after one without it). */
  function notice(strategy: string, holds: readonly Hold[]): void {
    const before = noticed.get(strategy);
    const now = new Set<string>();
    for (const hold of holds) {
      if (hold.logOnce === undefined) continue;
      const key = `${hold.rule}/${hold.logOnce}`;
      if (!now.has(key) && !before?.has(key)) log?.warn({ strategy, rule: hold.rule }, `${strategy}: ${hold.reason}`);
      now.add(key);
    }
    if (now.size > 0) noticed.set(strategy, now);
    else noticed.delete(strategy);
  }

  /**
   * Reports what the executor made of an intent of `strategy`; returns whether balances may have
   * moved. `protective`: the rule protects a position, so no failure disarms it (executor/attempts.ts).
   */
  function report(strategy: string, result: Taken, protective: boolean): boolean {
    health.took(strategy, result, protective);
    if (result.outcome === 'deferred') {
      if (result.recorded) events.emit('deferred', { intentId: result.intentId, strategy, kind: result.kind, reason: result.reason });
      return false;
    }
    if (result.outcome !== 'done') return false;
    const id = result.attempt.input.id;
    if (result.created) planned += 1;
    events.emit('planned', { intentId: id, strategy, created: result.created });
    if (result.driven && result.row !== null) events.emit('executed', { intentId: id, strategy, state: result.row.state });
    if (!result.touched) return false;
    readsBeforeMove = options.refreshBalances?.() ?? readsBeforeMove;
    return true;
  }

  async function runTick(): Promise<void> {
    const now = clock.now();
    const loaded = options.strategies();
    memory.retain(new Set(loaded.keys()));
    health.retain(new Set(loaded.keys()));
    for (const name of [...noticed.keys()]) if (!loaded.has(name)) noticed.delete(name);
    const stopping = (): boolean => executor.stopped || signal.aborted;
    const vaultOff = (options.paused?.vaultOrders() ?? null) !== null;
    let acted = false;
    // The operator's cancels and sales first, before the snapshot: they decide nothing on prices or
    // balances, so neither stale balances nor a missing price may hold a halt back.
    for (const { strategy, intent } of options.controls?.() ?? []) {
      if (stopping()) break;
      if (vaultOff && intent.kind === 'cancel-vault-order') continue;
      if (report(strategy, await executor.take(strategy, intent), true)) acted = true;
    }
    const built = buildSnapshot(options.sources(), readsBeforeMove);
    ticks += 1;
    lastTickAt = now;
    if (!built.ok) {
      if (built.reason !== lastSkipped) log?.info({ reason: built.reason }, `not deciding: ${built.reason}; decides again once the feeds answer`);
      lastSkipped = built.reason;
      // Not asked again here: the read the action asked for is on its way, and when it fails the feed
      // polls again on its interval. Asking at every skipped tick (each feed's read wakes one) would
      // run the balances polls back to back against an RPC that is failing.
      events.emit('tick', { at: now, strategies: loaded.size, intents: 0, holds: 0, skipped: built.reason });
      return;
    }
    lastSkipped = null;
    const { snapshot } = built;
    let intents = 0;
    let holds = 0;
    // Funds an expired (or stuck) order left in the vault come back before anything is decided on balances.
    if (!vaultOff) {
      for (const withdrawal of executor.withdrawals()) {
        if (stopping()) break;
        if (report(withdrawal.key.strategy, await executor.take(withdrawal.key.strategy, withdrawal), true)) acted = true;
      }
    }
    // Round robin: the tick after one in which a strategy acted starts with the strategy after it, so
    // one that acts every tick cannot keep the others from deciding.
    const order = [...loaded.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const first = order.findIndex((s) => s.name > lastActed);
    const rotated = lastActed === '' || first <= 0 ? order : [...order.slice(first), ...order.slice(0, first)];
    for (const strategy of acted ? [] : rotated) {
      if (stopping()) break;
      const paused = options.paused?.strategy(strategy) ?? null;
      if (paused !== null) {
        // Nothing it could ask for would be answered: no decision, and the rules say why.
        health.paused(strategy.name, armedRules(strategy), paused);
        continue;
      }
      const decision = decide(strategy, records.state(strategy, snapshot, now), snapshot, now);
      memory.scheduled(strategy.name, decision.scheduledThrough);
      health.decided(strategy.name, armedRules(strategy), decision.holds);
      // A DCA run is a purchase, not a protection: it gives up after its retries.
      const protective = strategy.spec.kind !== 'dca';
      holds += decision.holds.length;
      for (const hold of decision.holds) log?.debug({ strategy: strategy.name, rule: hold.rule }, `hold: ${hold.reason}`);
      notice(strategy.name, decision.holds);
      events.emit('decided', { strategy: strategy.name, intents: decision.intents.length, holds: decision.holds });
      for (const intent of decision.intents) {
        // Stopping: nothing new is journaled (what is already journaled is reconciliation's).
        if (stopping()) break;
        intents += 1;
        if (report(strategy.name, await executor.take(strategy.name, intent, { protective }), protective)) acted = true;
      }
      if (strategy.spec.kind === 'dca' && !acted && !stopping()) {
        for (const taken of await executor.retryRuns(strategy.name, strategy.spec.on_time_within)) if (report(strategy.name, taken, false)) acted = true;
      }
      health.passed(strategy.name);
      // The balances moved: the strategies after this one decide next tick, on a fresh read.
      if (acted) {
        lastActed = strategy.name;
        break;
      }
    }
    memory.flush(clock.now());
    events.emit('tick', { at: now, strategies: loaded.size, intents, holds, skipped: null });
  }

  /** A wake came since the current tick began: the next one runs at once. */
  let woken = false;
  let wakeUp: (() => void) | null = null;
  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  /** Until a wake, the signal, or the monotonic instant `due` (the time-based rules' clock). */
  async function nextWake(due: number): Promise<void> {
    if (woken || signal.aborted) return;
    const timer = new AbortController();
    const stop = (): void => timer.abort();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await Promise.race([
        // Rejects when aborted, by the wake or the signal: either way the wait is over.
        clock.sleep(Math.max(0, due - clock.monotonic()), timer.signal).catch(() => undefined),
        new Promise<void>((resolve) => (wakeUp = resolve)),
      ]);
    } finally {
      wakeUp = null;
      signal.removeEventListener('abort', stop);
      timer.abort();
    }
  }

  function tick(): Promise<void> {
    running ??= runTick()
      .catch((error: unknown) => {
        log?.error({ err: error }, `tick failed: ${errorMessage(error)}; the next tick runs as usual`);
        try {
          records.error('tick', errorMessage(error));
        } catch {
          // The database itself is failing (or closed): the log line above is all that can be kept.
        }
      })
      .finally(() => (running = undefined));
    return running;
  }

  const done = (async () => {
    // Rule 2: nothing new is decided before reconciliation has resolved what the last process left.
    try {
      // A stop before reconciliation settles (a failed start) ends the loop without waiting for it.
      if ((await Promise.race([options.ready.then(() => 'ready' as const), abortedSignal(signal)])) === 'aborted') return;
    } catch (error) {
      // Not knowing what the last process left is not a reason to guess: no trading until a restart.
      blocked = `first reconcile pass failed: ${errorMessage(error)}`;
      log?.error({ err: error }, `${blocked}; not deciding anything until a restart (the audit log has the error)`);
      records.error('reconcile', blocked);
      return;
    }
    const unsubscribe = options.wakeOn?.(wake) ?? (() => undefined);
    const unsubscribeRead =
      options.wakeOnRead?.(() => {
        // Fresh balances wake the loop only when the last tick waited for them: a read an action
        // asked for must not start the next tick by itself (an intent still in flight would loop).
        if (lastSkipped !== null) wake();
      }) ?? (() => undefined);
    try {
      while (!signal.aborted) {
        woken = false;
        const began = clock.monotonic();
        await tick();
        // Half an interval of slack: the price feed publishes every interval, and a timer due at the
        // same instant would only run a tick before the read it is waiting for.
        await nextWake(began + options.intervalMs * 1.5);
      }
    } finally {
      unsubscribe();
      unsubscribeRead();
    }
  })();

  return {
    events,
    tick,
    status: () => ({ ticks, lastTickAt, lastSkipped, blocked, planned, deferred: executor.deferred(), strategies: health.status() }),
    done,
  };
}

/** Resolves 'aborted' when `signal` aborts (at once if it has). */
function abortedSignal(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}
