/**
 * What each rule of each strategy is doing, and which strategies are degraded, for `/status`,
 * `/readyz` and the operator. A rule is `armed` (its condition does not hold now), `waiting` (it
 * holds back for a reason the strategy gives: the reason), `acting` (an intent is in hand), `retrying` (its last attempt failed; the next is due at a
 * time), `failed` (a rule that does not protect a position used its retries) or `paused` (the
 * strategy needs an API area the key may not use now, and does not decide: the reason). A strategy is
 * degraded once one decision has failed {@link DEGRADED_AFTER} times in a row: that is written to the
 * audit log (`strategy.degraded`, which the operator is alerted of) and undone when an attempt
 * confirms or the rule stops asking (`strategy.recovered`). A protective rule keeps trying meanwhile.
 */
import type { AuditLog } from '../../store/audit.js';
import type { IntentRow } from '../../store/journal.js';
import type { Hold } from '../../strategies/intents.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import { exitRules } from '../../strategies/priceOrderExits.js';
import { DEGRADED_AFTER, type NextAttempt } from '../executor/attempts.js';
import type { Taken } from '../executor/intake.js';

/** The rules a strategy arms, by their ids in intents and holds. */
export function armedRules(strategy: LoadedStrategy): string[] {
  switch (strategy.spec.kind) {
    case 'price-order':
      return exitRules(strategy as Parameters<typeof exitRules>[0]);
    case 'dca':
      return ['run'];
    case 'prediction-exit':
      return strategy.spec.rules.map((r) => r.id);
  }
}

export type RuleState = 'armed' | 'waiting' | 'acting' | 'retrying' | 'failed' | 'paused';

export interface RuleStatus {
  readonly rule: string;
  readonly state: RuleState;
  /** In words: the strategy's reason to wait, the intent's state, or the failure and when it is tried again. */
  readonly why: string;
  readonly intentId?: string | undefined;
  /** Epoch ms of the next attempt (`retrying`). */
  readonly nextTryAt?: number | undefined;
  /** Failed attempts in a row (`retrying`, `failed`). */
  readonly failures?: number | undefined;
}

export interface Degradation {
  readonly rule: string;
  /** The decision's original intent id (its retries carry `~rN`). */
  readonly intentId: string;
  readonly failures: number;
  readonly code: string | null;
  readonly since: number;
  readonly protective: boolean;
}

export interface StrategyHealth {
  readonly rules: readonly RuleStatus[];
  readonly degraded: Degradation | null;
}

export class RuleHealth {
  readonly #rules = new Map<string, Map<string, RuleStatus>>();
  readonly #degraded = new Map<string, Degradation>();
  /** Decisions acted on in the current pass of each strategy (original ids). */
  readonly #asked = new Map<string, Set<string>>();

  constructor(private readonly options: { readonly audit: AuditLog; readonly now: () => number }) {}

  /** A strategy decides afresh: every rule it arms, its holds what its waiting rules wait for. */
  decided(strategy: string, armed: readonly string[], holds: readonly Hold[]): void {
    const rules = new Map<string, RuleStatus>();
    for (const rule of armed) rules.set(rule, { rule, state: 'armed', why: 'its condition does not hold now' });
    for (const hold of holds) rules.set(hold.rule, { rule: hold.rule, state: 'waiting', why: hold.reason });
    this.#rules.set(strategy, rules);
    this.#asked.set(strategy, new Set());
  }

  /** The strategy does not decide now (an API area it needs is off): every rule it arms is paused, for `reason`. */
  paused(strategy: string, armed: readonly string[], reason: string): void {
    this.#rules.set(strategy, new Map(armed.map((rule) => [rule, { rule, state: 'paused', why: reason }])));
  }

  /** What the retry logic made of one decision of `strategy`. */
  attempted(strategy: string, rule: string, originalId: string, attempt: NextAttempt, protective: boolean): void {
    this.#asked.get(strategy)?.add(originalId);
    const rules = this.#rules.get(strategy) ?? new Map<string, RuleStatus>();
    this.#rules.set(strategy, rules);
    if (attempt.kind === 'plan') {
      rules.set(rule, { rule, state: 'acting', why: `${attempt.input.id} in hand`, intentId: attempt.input.id, failures: attempt.failures });
    } else {
      const code = attempt.last.errorCode ?? attempt.last.state;
      rules.set(
        rule,
        attempt.kind === 'wait'
          ? {
              rule,
              state: 'retrying',
              why: `${code}; tried again at ${new Date(attempt.at).toISOString()}`,
              intentId: attempt.last.id,
              nextTryAt: attempt.at,
              failures: attempt.failures,
            }
          : { rule, state: 'failed', why: `${code}; not tried again`, intentId: attempt.last.id, failures: attempt.failures },
      );
    }
    const last = attempt.kind === 'plan' ? null : attempt.last;
    if (attempt.failures >= DEGRADED_AFTER && !this.#degraded.has(strategy)) {
      const degradation: Degradation = {
        rule,
        intentId: originalId,
        failures: attempt.failures,
        code: last?.errorCode ?? null,
        since: this.options.now(),
        protective,
      };
      this.#degraded.set(strategy, degradation);
      this.options.audit.append({
        kind: 'strategy.degraded',
        strategy,
        intentId: originalId,
        data: { ...degradation, nextTryAt: attempt.kind === 'wait' ? attempt.at : null, final: attempt.kind === 'final' },
      });
    }
  }

  /** What the executor made of one decision of `strategy` (a deferred one has no rule state). */
  took(strategy: string, taken: Taken, protective: boolean): void {
    if (taken.outcome === 'deferred') return;
    this.attempted(strategy, taken.rule, taken.slot, taken.attempt, protective);
    if (taken.outcome !== 'done' || !taken.driven || taken.row === null) return;
    this.executed(strategy, taken.rule, taken.slot, taken.row);
    if (taken.retry !== null) this.attempted(strategy, taken.rule, taken.slot, taken.retry, protective);
  }

  /** The executor drove an attempt of a decision as far as it goes now. */
  executed(strategy: string, rule: string, originalId: string, row: IntentRow): void {
    const rules = this.#rules.get(strategy);
    if (rules) rules.set(rule, { rule, state: 'acting', why: `${row.id} ${row.state}`, intentId: row.id });
    if (row.state === 'confirmed') this.#recover(strategy, originalId, 'an attempt confirmed');
  }

  /** The strategy's pass is over: a degraded decision it no longer asked for has stopped firing. */
  passed(strategy: string): void {
    const degraded = this.#degraded.get(strategy);
    if (degraded && !this.#asked.get(strategy)?.has(degraded.intentId)) this.#recover(strategy, degraded.intentId, 'the rule no longer fires');
  }

  /** Forgets strategies no longer loaded. */
  retain(names: ReadonlySet<string>): void {
    for (const name of [...this.#rules.keys()]) if (!names.has(name)) this.#rules.delete(name);
    for (const name of [...this.#degraded.keys()]) if (!names.has(name)) this.#degraded.delete(name);
  }

  status(): Record<string, StrategyHealth> {
    const out: Record<string, StrategyHealth> = {};
    for (const [strategy, rules] of this.#rules) out[strategy] = { rules: [...rules.values()], degraded: this.#degraded.get(strategy) ?? null };
    return out;
  }

  degraded(): ReadonlyMap<string, Degradation> {
    return this.#degraded;
  }

  #recover(strategy: string, originalId: string, reason: string): void {
    const degraded = this.#degraded.get(strategy);
    if (!degraded || degraded.intentId !== originalId) return;
    this.#degraded.delete(strategy);
    this.options.audit.append({
      kind: 'strategy.recovered',
      strategy,
      intentId: originalId,
      data: { rule: degraded.rule, failures: degraded.failures, since: degraded.since, reason },
    });
  }
}
