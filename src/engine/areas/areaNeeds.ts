/**
 * Which API areas the loaded strategies need, so that nothing polls an area no strategy uses:
 *
 * - a price order or DCA needs `tokens` (its prices); a disabled strategy needs nothing;
 * - `execution: local` price orders and `execution: swap` DCA need `swap`;
 * - vault price orders and vault DCA need `trigger`, and so does any vault order of ours the mirror
 *   still holds as live or pending (a strategy removed while its orders are open: their fills are
 *   still recorded, their funds still withdrawn);
 * - `prediction-exit` needs `prediction`.
 *
 * The answer is computed once per set of loaded strategies (the watcher replaces the map as a whole
 * on every change), so feeds, readiness and status may ask as often as they like.
 */
import type { ApiArea } from '../../jupiter/apiAreas.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import type { StrategySpec } from '../../strategies/strategySchema.js';

/** The areas a strategy of this spec needs to trade (`jupbot plan` prints them too). */
export function specAreas(spec: StrategySpec): readonly ApiArea[] {
  if (!spec.enabled) return [];
  switch (spec.kind) {
    case 'price-order':
      return ['tokens', spec.execution === 'local' ? 'swap' : 'trigger'];
    case 'dca':
      return ['tokens', spec.execution === 'swap' ? 'swap' : 'trigger'];
    case 'prediction-exit':
      return ['prediction'];
  }
}

/** The areas one loaded strategy needs to trade. */
export function strategyAreas(strategy: LoadedStrategy): readonly ApiArea[] {
  return specAreas(strategy.spec);
}

export class AreaNeeds {
  readonly #users = new WeakMap<ReadonlyMap<string, LoadedStrategy>, ReadonlyMap<ApiArea, readonly string[]>>();

  constructor(
    private readonly strategies: () => ReadonlyMap<string, LoadedStrategy>,
    /** Whether the mirror holds a vault order of ours that may still fill or is being placed. */
    private readonly vaultOrdersOpen: () => boolean = () => false,
    /** An area something other than a strategy needs now (the operator's controls). */
    private readonly alsoNeeded: (area: ApiArea) => boolean = () => false,
  ) {}

  /** The loaded strategies that need `area`, by name. */
  users(area: ApiArea): readonly string[] {
    const loaded = this.strategies();
    let byArea = this.#users.get(loaded);
    if (byArea === undefined) {
      const map = new Map<ApiArea, string[]>();
      for (const strategy of loaded.values()) for (const a of strategyAreas(strategy)) map.set(a, [...(map.get(a) ?? []), strategy.name]);
      this.#users.set(loaded, (byArea = map));
    }
    return byArea.get(area) ?? [];
  }

  /** Whether anything loaded needs `area` now. */
  needed(area: ApiArea): boolean {
    return this.users(area).length > 0 || (area === 'trigger' && this.vaultOrdersOpen()) || this.alsoNeeded(area);
  }
}
