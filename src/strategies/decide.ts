import { decideDca } from './decideDca.js';
import { decidePredictionExit } from './decidePredictionExit.js';
import { decidePriceOrder } from './decidePriceOrder.js';
import type { Decision } from './intents.js';
import type { LoadedDca, LoadedPredictionExit, LoadedPriceOrder, LoadedStrategy } from './loadedStrategy.js';
import type { Snapshot, StrategyState } from './snapshot.js';

const NOTHING: Decision = { intents: [], holds: [] };

/**
 * (strategy, state, snapshot, now) → intents. Pure: reads no clock, does no I/O; the same inputs
 * always give the same decision, so the engine may call it as often as it likes.
 */
export function decide(strategy: LoadedStrategy, state: StrategyState, snapshot: Snapshot, now: number): Decision {
  if (!strategy.spec.enabled) return NOTHING;
  switch (strategy.spec.kind) {
    case 'price-order':
      return decidePriceOrder(strategy as LoadedPriceOrder, state, snapshot, now);
    case 'dca':
      return decideDca(strategy as LoadedDca, state, snapshot, now);
    case 'prediction-exit':
      return decidePredictionExit(strategy as LoadedPredictionExit, state, snapshot, now);
  }
}
