import { paperTokenSearch } from '../../../src/sim/paperTokenSearch.js';
import { SOL_MINT, USDC_MINT } from '../../../src/sim/programIds.js';
import { parseFixed } from '../../../src/money/decimal.js';
import type { LoadedStrategy } from '../../../src/strategies/loadedStrategy.js';
import { loadStrategyFile } from '../../../src/strategies/loadStrategies.js';
import type { Snapshot } from '../../../src/strategies/snapshot.js';
import { formatDiagnostic } from '../../../src/config/diagnostics.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';

export { SOL_MINT, USDC_MINT };
export const JUP_MINT = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

/** Loads a strategy text against the simulator's tokens (and a config's limits); throws with the diagnostics if invalid. */
export async function load<S extends LoadedStrategy = LoadedStrategy>(text: string, file = 's.yaml', limits = DEFAULT_STRATEGY_LIMITS): Promise<S> {
  const outcome = await loadStrategyFile({ file, text }, paperTokenSearch, { get: () => undefined }, limits);
  if (!outcome.strategy) throw new Error(outcome.diagnostics.map(formatDiagnostic).join('\n'));
  return outcome.strategy as S;
}

export function usd(text: string): bigint {
  const value = parseFixed(text);
  if (value === undefined) throw new Error(`bad decimal ${text}`);
  return value;
}

/** A snapshot with defaults: SOL $150 and USDC $1 fresh at `at`, no orders or positions. */
export function snapshot(over: Partial<Snapshot> & { at?: number; sol?: string } = {}): Snapshot {
  const at = over.at ?? T0;
  return {
    prices:
      over.prices ??
      new Map([
        [SOL_MINT, { usd: usd(over.sol ?? '150'), at }],
        [USDC_MINT, { usd: usd('1'), at }],
      ]),
    balances:
      over.balances ??
      new Map([
        [SOL_MINT, 10_000_000_000n],
        [USDC_MINT, 1_000_000_000n],
      ]),
    vaultOrders: over.vaultOrders ?? new Map(),
    positions: over.positions ?? [],
    markets: over.markets ?? new Map(),
    scores: over.scores ?? new Map(),
    tradingActive: over.tradingActive === undefined ? true : over.tradingActive,
    priceImpactBps: over.priceImpactBps ?? new Map(),
  };
}

export const HEADER = '# yaml-language-server: $schema=../schema/strategy.schema.json\n';
