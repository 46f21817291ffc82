/**
 * What the running strategies need polled, read afresh at every poll so a hot reload takes effect
 * at the next one: the mints they trade (for the prices feed), the prediction markets and the events
 * they name (for the markets and scores feeds). Each list is sorted and deduplicated.
 */
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';

type Strategies = ReadonlyMap<string, LoadedStrategy>;

/** Every mint a running strategy trades. */
export function mintsInUse(strategies: Strategies): string[] {
  const mints = new Set<string>();
  for (const strategy of strategies.values()) {
    for (const token of Object.values(strategy.tokens)) if (token) mints.add(token.mint);
  }
  return [...mints].sort();
}

/** Prediction markets running strategies name (the markets of positions held are polled too). */
export function marketsInUse(strategies: Strategies): string[] {
  const markets = new Set<string>();
  for (const { spec } of strategies.values()) {
    if (spec.kind === 'prediction-exit' && spec.positions.market !== undefined) markets.add(spec.positions.market);
  }
  return [...markets].sort();
}

/** Prediction events whose scores a running strategy's rules read. */
export function eventsInUse(strategies: Strategies): string[] {
  const events = new Set<string>();
  for (const { spec } of strategies.values()) {
    if (spec.kind === 'prediction-exit' && spec.positions.event !== undefined) events.add(spec.positions.event);
  }
  return [...events].sort();
}
