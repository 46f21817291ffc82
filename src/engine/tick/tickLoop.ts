/**
 * The decide loop: every `intervalMs` on the injected clock — and only once reconciliation's first
 * pass has settled — one snapshot from the feeds, then for every loaded
 * strategy decide() and:
 *
 * - an intent of a kind the executor takes (`executor.planOf`: each kind's route sits with the
 *   handler that executes it): handed to the executor, which journals it first (idempotent by id: a
 *   repeated tick, a restart or a hot reload finds the row instead of making another) and drives it;
 * - any other intent has no handler in this setup (vault kinds without the Trigger login): it is NOT
 *   journaled (a planned row would be resumed by reconciliation with nobody to finish it), but
 *   recorded once per intent id — a log line and an `intent.deferred` action — and counted in status.
 *
 * Ticks never overlap: intents are driven inside the tick, and the next tick waits for them. Every
 * executed intent may move balances (a swap, a deposit, a withdrawal, a sale), so they must be read
 * again before anything is decided on them: the strategies after the one that acted wait for the
 * next tick.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../ops/log.js';
import type { AuditLog } from '../../store/audit.js';
import type { Db } from '../../store/db.js';
import { FINAL_INTENT_STATES } from '../../store/intentRow.js';
import type { Journal } from '../../store/journal.js';
import { decide } from '../../strategies/decide.js';
import type { Hold, Intent } from '../../strategies/intents.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import { TypedEmitter } from '../../typedEmitter.js';
import type { Executor } from '../executor/executor.js';
import type { PlanInput } from '../../store/journal.js';
import { buildSnapshot, type SnapshotSources } from './buildSnapshot.js';
import { strandedWithdrawals } from './strandedWithdrawals.js';
import { nextAttempt, runRetries, withoutRetry } from './retries.js';
import { armedRules, RuleHealth, type StrategyHealth } from './ruleHealth.js';
import { StrategyMemory } from './strategyMemory.js';
import { StrategyStates } from '../../store/strategyStates.js';
import { hasAction } from '../../store/actionQueries.js';
import { strategyRecords, type StrategyRecords } from '../../store/strategyRecords.js';
import { journalProgress, notionalToday, type JournalProgress, type StrategyProgress, triggerOf } from './strategyProgress.js';
import type { Fixed } from '../../strategies/decimal.js';

/** What the journal says of a strategy, derived once per read of its records (they are replaced when the journal changes). */
const progressByRecords = new WeakMap<StrategyRecords, JournalProgress>();

function progressOf(records: StrategyRecords, now: number, priceOf: (mint: string) => Fixed | undefined): StrategyProgress {
  let journal = progressByRecords.get(records);
  if (journal === undefined) progressByRecords.set(records, (journal = journalProgress(records.rows, records.filled, records.ended)));
  const { swapsByDay, ...rest } = journal;
  return { ...rest, notional: notionalToday(swapsByDay, now, priceOf) };
}

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
  readonly db: Db;
  readonly journal: Journal;
  readonly audit: AuditLog;
  readonly executor: Executor;
  readonly strategies: () => ReadonlyMap<string, LoadedStrategy>;
  /** The feeds' states, read at each tick. */
  readonly sources: () => SnapshotSources;
  /** Asks the balances feed to poll now (after a swap). */
  readonly refreshBalances?: (() => void) | undefined;
  readonly intervalMs: number;
  /** Reconciliation's first pass: no tick before it settles. */
  readonly ready: Promise<unknown>;
  /**
   * Why a strategy may not decide now (an API area it needs is off for this key: engine/areas/), else
   * null; and why vault orders may not be acted on (the trigger area is off), else null. @default never
   */
  readonly paused?: { strategy(strategy: LoadedStrategy): string | null; vaultOrders(): string | null } | undefined;
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

const instants = new WeakMap<object, number | null>();

/** A scheduled run's instant, from its journal id (`…/run/<ISO>`); read once per row object (rows are reused until the journal changes). */
function instantOf(row: Parameters<typeof triggerOf>[0]): number | null {
  let at = instants.get(row);
  if (at === undefined) {
    const trigger = triggerOf(row);
    const parsed = trigger === null ? Number.NaN : Date.parse(trigger);
    instants.set(row, (at = Number.isFinite(parsed) ? parsed : null));
  }
  return at;
}

const DEFER_REASON = 'no handler executes this intent kind in this setup (vault orders need the Trigger login): not journaled, not executed';

export function startTickLoop(options: TickLoopOptions): TickLoop {
  const { clock, db, audit, executor, log, signal } = options;
  const events = new TypedEmitter<TickEvents>();
  const memory = new StrategyMemory({
    store: new StrategyStates(db),
    // "+20%" is relative to this: the audit log says what it was and when it was fixed.
    onArmed: ({ strategy, ...armed }) => audit.append({ kind: 'strategy.armed', strategy, data: armed }),
  });
  const health = new RuleHealth({ audit, now: () => clock.now() });
  const deferredIds = new Set<string>();
  const reportedFinal = new Set<string>();
  /** By strategy: the `logOnce` holds (rule/key) of its last decision, already logged. */
  const noticed = new Map<string, ReadonlySet<string>>();
  const deferredByKind: Record<string, number> = {};
  let ticks = 0;
  let lastTickAt: number | null = null;
  let lastSkipped: string | null = null;
  let planned = 0;
  let lastSwapAt = 0;
  /** The strategy that acted last (names order the loop), for the round robin. */
  let lastActed = '';
  let running: Promise<void> | undefined;
  let blocked: string | null = null;

  function defer(strategy: LoadedStrategy, intent: Intent): void {
    if (deferredIds.has(intent.id)) return;
    deferredIds.add(intent.id);
    deferredByKind[intent.kind] = (deferredByKind[intent.kind] ?? 0) + 1;
    // Once per id across restarts too: the audit log already holds the first record.
    if (hasAction(db, 'intent.deferred', intent.id)) return;
    audit.append({
      kind: 'intent.deferred',
      strategy: strategy.name,
      intentId: intent.id,
      data: { kind: intent.kind, code: 'NO_HANDLER', reason: DEFER_REASON, intent: intent.reason, evidence: intent.evidence },
    });
    log?.warn(
      { strategy: strategy.name, intentId: intent.id, kind: intent.kind },
      `${strategy.name}: ${intent.kind} deferred: ${DEFER_REASON} (${intent.reason})`,
    );
    events.emit('deferred', { intentId: intent.id, strategy: strategy.name, kind: intent.kind, reason: DEFER_REASON });
  }

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
   * Journals and drives `input` (or its retry); returns whether anything was executed (balances may
   * have moved): not when the executor left the row untouched. `protective`: the rule protects a
   * position (an exit, a withdrawal), so no failure disarms it (retries.ts).
   */
  async function act(strategy: { readonly name: string }, input: PlanInput, ended: ReadonlySet<string> = new Set(), protective = true): Promise<boolean> {
    const attempt = nextAttempt(options.journal, input, clock.now(), (row) => ended.has(row.id), protective);
    const rule = input.rule ?? withoutRetry(input.id);
    health.attempted(strategy.name, rule, input.id, attempt, protective);
    if (attempt.kind !== 'plan') {
      // A failed decision: said once per failed row, not every tick.
      if (!reportedFinal.has(attempt.last.id)) {
        reportedFinal.add(attempt.last.id);
        const why = attempt.kind === 'wait' ? `retrying after ${new Date(attempt.at).toISOString()}` : 'not retried';
        log?.warn(
          { strategy: strategy.name, intentId: attempt.last.id, code: attempt.last.errorCode },
          `${strategy.name}: ${attempt.last.state} intent (${attempt.last.errorCode ?? 'no code'}): ${why}`,
        );
      }
      return false;
    }
    const next = attempt.input;
    // The executor journals first; the id makes it idempotent, so this is the real guard against twice.
    const before = options.journal.get(next.id);
    if (before === undefined) planned += 1;
    if (before !== undefined && FINAL_INTENT_STATES.has(before.state)) {
      events.emit('planned', { intentId: next.id, strategy: strategy.name, created: false });
      return false;
    }
    let touched = true;
    try {
      const after = await executor.execute(next);
      health.executed(strategy.name, rule, input.id, after);
      // Failed now: what the retry logic makes of it (when it is tried again) is what the rule is doing.
      if (after.state === 'failed' || after.state === 'cancelled')
        health.attempted(
          strategy.name,
          rule,
          input.id,
          nextAttempt(options.journal, input, clock.now(), (row) => ended.has(row.id), protective),
          protective,
        );
      // Left exactly as it was (a handler backing off): nothing was sent, no balance moved.
      touched = before === undefined || after.state !== before.state || after.updatedAt !== before.updatedAt;
      events.emit('planned', { intentId: next.id, strategy: strategy.name, created: before === undefined });
      events.emit('executed', { intentId: next.id, strategy: strategy.name, state: after.state });
    } catch (error) {
      // The executor records its own failures; this is the database or a bug. Reconciliation retries.
      log?.error(
        { strategy: strategy.name, intentId: next.id, err: error },
        `${strategy.name}: executing intent failed: ${errorMessage(error)}; reconciliation picks it up`,
      );
      audit.append({ kind: 'error', strategy: strategy.name, intentId: next.id, data: { during: 'tick', message: errorMessage(error) } });
    } finally {
      if (touched) {
        lastSwapAt = clock.now();
        options.refreshBalances?.();
      }
    }
    return touched;
  }

  async function runTick(): Promise<void> {
    const now = clock.now();
    const loaded = options.strategies();
    memory.retain(new Set(loaded.keys()));
    health.retain(new Set(loaded.keys()));
    for (const name of [...noticed.keys()]) if (!loaded.has(name)) noticed.delete(name);
    const built = buildSnapshot(options.sources(), lastSwapAt);
    ticks += 1;
    lastTickAt = now;
    if (!built.ok) {
      if (built.reason !== lastSkipped) log?.info({ reason: built.reason }, `not deciding: ${built.reason}; decides again once the feeds answer`);
      lastSkipped = built.reason;
      if (lastSwapAt > 0) options.refreshBalances?.();
      events.emit('tick', { at: now, strategies: loaded.size, intents: 0, holds: 0, skipped: built.reason });
      return;
    }
    lastSkipped = null;
    const { snapshot } = built;
    let intents = 0;
    let holds = 0;
    let acted = false;
    // Funds an expired (or stuck) order left in the vault come back before anything is decided on balances.
    if (executor.handles('cancel-vault-order') && (options.paused?.vaultOrders() ?? null) === null) {
      for (const withdrawal of strandedWithdrawals(db)) {
        const input = executor.planOf(withdrawal);
        if (executor.stopped || signal.aborted || input === undefined) break;
        if (await act({ name: withdrawal.key.strategy }, input)) acted = true;
      }
    }
    // Round robin: the tick after one in which a strategy acted starts with the strategy after it, so
    // one that acts every tick cannot keep the others from deciding.
    const order = [...loaded.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const first = order.findIndex((s) => s.name > lastActed);
    const rotated = lastActed === '' || first <= 0 ? order : [...order.slice(first), ...order.slice(0, first)];
    for (const strategy of acted ? [] : rotated) {
      if (executor.stopped || signal.aborted) break;
      const paused = options.paused?.strategy(strategy) ?? null;
      if (paused !== null) {
        // Nothing it could ask for would be answered: no decision, and the rules say why.
        health.paused(strategy.name, armedRules(strategy), paused);
        continue;
      }
      const records = strategyRecords(db, strategy.name);
      const { rows, ended } = records;
      const progress = progressOf(records, now, (mint) => snapshot.prices.get(mint)?.usd);
      const decision = decide(strategy, memory.state(strategy, progress, snapshot, now), snapshot, now);
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
        if (executor.stopped || signal.aborted) break;
        intents += 1;
        const input = executor.planOf(intent);
        if (input === undefined) {
          defer(strategy, intent);
          continue;
        }
        if (await act(strategy, input, ended, protective)) acted = true;
      }
      if (strategy.spec.kind === 'dca' && !acted) {
        for (const retry of runRetries(options.journal, rows, strategy.spec.on_time_within, now, instantOf)) {
          if (executor.stopped || signal.aborted) break;
          if (await act(strategy, retry, new Set(), false)) acted = true;
        }
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

  function tick(): Promise<void> {
    running ??= runTick()
      .catch((error: unknown) => {
        log?.error({ err: error }, `tick failed: ${errorMessage(error)}; the next tick runs as usual`);
        try {
          audit.append({ kind: 'error', data: { during: 'tick', message: errorMessage(error) } });
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
      await options.ready;
    } catch (error) {
      // Not knowing what the last process left is not a reason to guess: no trading until a restart.
      blocked = `first reconcile pass failed: ${errorMessage(error)}`;
      log?.error({ err: error }, `${blocked}; not deciding anything until a restart (the audit log has the error)`);
      audit.append({ kind: 'error', data: { during: 'reconcile', message: blocked } });
      return;
    }
    while (!signal.aborted) {
      await tick();
      try {
        await clock.sleep(options.intervalMs, signal);
      } catch {
        return;
      }
    }
  })();

  return {
    events,
    tick,
    status: () => ({ ticks, lastTickAt, lastSkipped, blocked, planned, deferred: { ...deferredByKind }, strategies: health.status() }),
    done,
  };
}
