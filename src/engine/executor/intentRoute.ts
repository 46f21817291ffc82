/**
 * How a decided intent reaches the journal: one route per strategy intent kind, wired by trading.ts
 * next to the handler that executes the journal rows it produces. A kind without a route (or a route
 * that returns undefined for this intent) is deferred by the tick loop: recorded once, never
 * journaled, because a journaled row would be resumed by reconciliation with nobody to finish it.
 */
import type { Intent, IntentKind } from '../../strategies/intents.js';
import type { PlanInput } from '../../store/journal.js';

export interface IntentRoute<K extends IntentKind = IntentKind> {
  readonly kind: K;
  /** The journal entry for this intent (its id is the intent's id), or undefined to defer it. */
  plan(intent: Extract<Intent, { kind: K }>): PlanInput | undefined;
}

/** A route for any one kind. */
export type AnyIntentRoute = { [K in IntentKind]: IntentRoute<K> }[IntentKind];

/** Routes by kind, for the tick loop. */
export type IntentRoutes = ReadonlyMap<IntentKind, AnyIntentRoute>;

export function intentRoutes(...routes: readonly AnyIntentRoute[]): IntentRoutes {
  return new Map(routes.map((route) => [route.kind, route]));
}

/** The journal entry of `intent`, or undefined when no route takes it. */
export function planOf(routes: IntentRoutes, intent: Intent): PlanInput | undefined {
  // The map is keyed by kind, so the route found takes exactly this intent's kind.
  const route = routes.get(intent.kind) as IntentRoute | undefined;
  return route?.plan(intent);
}

/**
 * The journal entry of a decided intent: its id, strategy and rule, `params` plus the strategy file's
 * sha256 (`strategyHash`: the key's version), and the evidence that fired it with its trigger (the
 * `intent.planned` audit row, "why did it act?"). Every route builds its entry through this.
 */
export function journalEntry(intent: Intent, kind: string, params: Record<string, unknown>): PlanInput {
  return {
    id: intent.id,
    kind,
    strategy: intent.key.strategy,
    rule: intent.key.rule,
    params: { ...params, strategyHash: intent.key.version },
    evidence: { ...intent.evidence, trigger: intent.key.trigger },
    reason: intent.reason,
  };
}
