/**
 * What one kind of intent is, in one value: how a decided intent reaches the journal (its route:
 * the journal entry, or undefined to defer it) and the handler that executes the rows it journals.
 * A family folder (swap/, vault/, dca/, prediction/) exports one {@link ExecutableKind} per journal
 * kind, holding its params schema, plan and handler together, so a route can never be wired without
 * the handler that finishes it, nor a handler without a route. kindSet.ts lists them.
 *
 * A kind without a route (or a route that returns undefined for this intent) is deferred by the
 * executor's intake (intake.ts): recorded once, never journaled, because a journaled row would be
 * resumed by reconciliation with nobody to finish it.
 */
import type { z } from 'zod';
import type { PlanInput } from '../../store/journal.js';
import type { Intent, IntentKind } from '../../strategies/intents.js';
import { IntentRefusedError } from './errors.js';
import type { IntentHandler } from './handler.js';

export interface IntentRoute<K extends IntentKind = IntentKind> {
  readonly kind: K;
  /** The journal entry for this intent (its id is the intent's id), or undefined to defer it. */
  plan(intent: Extract<Intent, { kind: K }>): PlanInput | undefined;
}

/** A route for any one kind. */
export type AnyIntentRoute = { [K in IntentKind]: IntentRoute<K> }[IntentKind];

/** Routes by kind, for the tick loop. */
export type IntentRoutes = ReadonlyMap<IntentKind, AnyIntentRoute>;

/**
 * One journal kind: the strategy intents it accepts and the handler of its rows. `createHandler`'s
 * handler must report the same `kind` (kindSet.ts checks it when the set is built).
 */
export interface ExecutableKind<Deps> {
  /** The journal `kind` of the rows it plans and executes. */
  readonly kind: string;
  /** The strategy intents planned as rows of this kind. */
  readonly routes: readonly AnyIntentRoute[];
  createHandler(deps: Deps): IntentHandler;
}

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

/**
 * A journal row's params read back for its kind. They were written by the kind's route, so a row that
 * does not parse was edited or written by another version: the intent fails `PARAMS_INVALID` rather
 * than act on a guess.
 */
export function parseJournalParams<S extends z.ZodType>(schema: S, kind: string, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    throw new IntentRefusedError(
      'PARAMS_INVALID',
      `${kind} params do not parse: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
