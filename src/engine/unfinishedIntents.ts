import type { IntentRow, IntentState } from '../store/journal.js';

/** What a stop left for the next start: intents not yet final, counted by state. */
export interface UnfinishedIntents {
  readonly count: number;
  readonly byState: Partial<Record<IntentState, number>>;
}

export function unfinishedIntents(pending: readonly Pick<IntentRow, 'state'>[]): UnfinishedIntents {
  const byState: Partial<Record<IntentState, number>> = {};
  for (const row of pending) byState[row.state] = (byState[row.state] ?? 0) + 1;
  return { count: pending.length, byState };
}

/**
 * The stop line's tail. A stop does not wait for work in hand to finish (a swap planned a moment
 * before the signal stays planned, a call in flight is aborted): reconciliation resolves these rows at
 * the next start, and an operator stopping for longer should know some are waiting.
 */
export function unfinishedText(unfinished: UnfinishedIntents): string {
  if (unfinished.count === 0) return 'no intent left unfinished';
  const states = Object.entries(unfinished.byState)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  const noun = unfinished.count === 1 ? 'intent' : 'intents';
  return `${unfinished.count} ${noun} left unfinished (${states}): the next start resolves ${unfinished.count === 1 ? 'it' : 'them'}`;
}
