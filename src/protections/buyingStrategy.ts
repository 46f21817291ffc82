/**
 * Which strategies buy, for the protections that pause buying only (`pauses: buying`):
 *
 * - a `dca` strategy: every run (a swap, or its Trigger DCA order) spends dollars on a token;
 * - a `price-order` strategy with an `entry`: its OTOCO buys first, then arms the exits. It buys
 *   only while it has no order in the vault: once its OTOCO is placed (or journaled), what it
 *   decides is how to keep that order and its stop (a renewal), and pausing it could let the stop
 *   expire. An entry already in the vault may still fill during a pause; cancelling it is the
 *   operator's call.
 *
 * Nothing else buys: a `price-order` without an entry only sells what the wallet holds, and a
 * `prediction-exit` only sells positions. Those keep working under `pauses: buying`: a protection
 * never disarms a stop.
 */
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import type { VaultOrderView } from '../strategies/snapshot.js';

export function isBuying(strategy: LoadedStrategy, vaultOrders: () => ReadonlyMap<string, readonly VaultOrderView[]>): boolean {
  const { spec } = strategy;
  if (spec.kind === 'dca') return true;
  if (spec.kind !== 'price-order' || spec.entry === undefined) return false;
  return (vaultOrders().get(strategy.name) ?? []).length === 0;
}
