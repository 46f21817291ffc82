/**
 * The parts of StrategyState only the decide loop can know, per strategy: when it first ran, the
 * last scheduled instant decide() accounted for, for a price-order the arming (reference price,
 * amount, peak) of the current generation, and for a prediction exit each position's highest sell
 * price. What was DONE comes from the journal (strategyProgress.ts) and is merged in here.
 *
 * Kept in the `strategy_state` table (StrategyStates) and written once per tick for the strategies
 * that changed: a restart must not re-base "+20%" on the price at restart, forget a trailing peak, or
 * count a schedule's missed runs from the restart instead of from the first run.
 */
import { formatFixed, parseFixed, type Fixed } from '../../money/decimal.js';
import type { LoadedPriceOrder, LoadedStrategy } from '../../strategies/loadedStrategy.js';
import { generationDone } from '../../strategies/priceOrderExits.js';
import { isLive, type Snapshot, type StrategyState } from '../../strategies/snapshot.js';
import type { StrategyStates } from '../../store/strategyStates.js';
import type { StrategyProgress } from './strategyProgress.js';

const NONE: ReadonlySet<string> = new Set();

interface Memory {
  startedAt: number;
  lastScheduledRun?: number;
  generation?: number;
  referencePriceUsd?: Fixed;
  armedAmount?: bigint;
  peakPriceUsd?: Fixed;
  positionPeaks?: Map<string, bigint>;
}

/** What arming fixed, for the `strategy.armed` audit row. */
export interface Armed {
  readonly strategy: string;
  readonly generation: number;
  readonly referencePriceUsd: string;
  readonly armedAmount: string;
  /** The token armed, so the line and the audit row can say "9.99999 SOL". */
  readonly mint: string;
  readonly symbol: string;
  readonly decimals: number;
}

export interface StrategyMemoryOptions {
  /** Where memory survives restarts; without it memory lives and dies with the process (tests, `plan`). */
  readonly store?: StrategyStates | undefined;
  /** Called when a generation is armed (its reference price and amount fixed). */
  readonly onArmed?: ((armed: Armed) => void) | undefined;
}

export class StrategyMemory {
  readonly #byName = new Map<string, Memory>();
  readonly #dirty = new Set<string>();
  readonly #options: StrategyMemoryOptions;

  constructor(options: StrategyMemoryOptions = {}) {
    this.#options = options;
  }

  /** The state for this tick; records the arming and the peaks from the snapshot first. */
  state(strategy: LoadedStrategy, progress: StrategyProgress, snapshot: Snapshot, now: number): StrategyState {
    const memory = this.#memory(strategy.name, now);
    let { generation, filledRules } = progress;
    if (strategy.spec.kind === 'price-order') {
      // A finished generation re-arms here, not in decide(): decide would take the price of every
      // tick as the new reference until an intent of the new generation is journaled, so a relative
      // level ("+1%") could never be crossed. Armed here, the reference is fixed and persisted.
      if (strategy.spec.rearm && generationDone(strategy as LoadedPriceOrder, filledRules) && !(snapshot.vaultOrders.get(strategy.name) ?? []).some(isLive)) {
        generation += 1;
        filledRules = NONE;
      }
      this.#watch(memory, strategy, generation, snapshot);
    }
    if (strategy.spec.kind === 'prediction-exit') this.#watchPositions(memory, strategy.name, snapshot);
    // The journal knows the runs made; memory also knows the ones skipped or held.
    const lastScheduledRun = Math.max(memory.lastScheduledRun ?? -Infinity, progress.lastScheduledRun ?? -Infinity);
    return {
      startedAt: memory.startedAt,
      ...(Number.isFinite(lastScheduledRun) ? { lastScheduledRun } : {}),
      generation,
      filledRules,
      handled: progress.handled,
      notional: progress.notional,
      ...(memory.referencePriceUsd === undefined ? {} : { referencePriceUsd: memory.referencePriceUsd }),
      ...(memory.armedAmount === undefined ? {} : { armedAmount: memory.armedAmount }),
      ...(memory.peakPriceUsd === undefined ? {} : { peakPriceUsd: memory.peakPriceUsd }),
      ...(memory.positionPeaks === undefined ? {} : { positionPeaks: memory.positionPeaks }),
    };
  }

  /** decide()'s `scheduledThrough`: that run (made, skipped or held) is never considered again. */
  scheduled(name: string, through: number | undefined): void {
    const memory = this.#byName.get(name);
    if (!memory || through === undefined) return;
    const next = Math.max(memory.lastScheduledRun ?? through, through);
    if (next !== memory.lastScheduledRun) {
      memory.lastScheduledRun = next;
      this.#dirty.add(name);
    }
  }

  /**
   * Strategies no longer loaded are dropped from memory (their stored row stays: a strategy that
   * comes back with the same name continues where it stopped, as after a restart).
   */
  retain(names: ReadonlySet<string>): void {
    for (const name of this.#byName.keys()) if (!names.has(name)) this.#byName.delete(name);
  }

  /** Writes what changed since the last flush, in one transaction. */
  flush(now: number): void {
    const store = this.#options.store;
    if (!store || this.#dirty.size === 0) return;
    const documents = new Map<string, object>();
    for (const name of this.#dirty) {
      const memory = this.#byName.get(name);
      if (memory) documents.set(name, toDocument(memory));
    }
    store.putAll(documents, now);
    this.#dirty.clear();
  }

  #memory(name: string, now: number): Memory {
    let memory = this.#byName.get(name);
    if (memory) return memory;
    const stored = this.#options.store?.get(name);
    memory = stored === undefined ? undefined : fromDocument(stored);
    if (!memory) {
      memory = { startedAt: now };
      this.#dirty.add(name);
    }
    this.#byName.set(name, memory);
    return memory;
  }

  /**
   * A generation is armed once there is a fresh price and something to sell: its reference price
   * and amount are fixed then, so "+20%" and "25%" do not drift with the price or shrink as rungs
   * sell. The peak only rises within a generation; a new generation starts over.
   */
  #watch(memory: Memory, strategy: LoadedStrategy, generation: number, snapshot: Snapshot): void {
    const sell = strategy.tokens.sell;
    if (!sell) return;
    const name = strategy.name;
    if (memory.generation !== generation) {
      memory.generation = generation;
      delete memory.referencePriceUsd;
      delete memory.armedAmount;
      delete memory.peakPriceUsd;
      this.#dirty.add(name);
    }
    const price = snapshot.prices.get(sell.mint)?.usd;
    if (price === undefined) return;
    const balance = snapshot.balances.get(sell.mint) ?? 0n;
    if (memory.armedAmount === undefined && balance > 0n) {
      memory.armedAmount = balance;
      memory.referencePriceUsd = price;
      this.#dirty.add(name);
      this.#options.onArmed?.({
        strategy: name,
        generation,
        referencePriceUsd: formatFixed(price),
        armedAmount: balance.toString(),
        mint: sell.mint,
        symbol: sell.symbol,
        decimals: sell.decimals,
      });
    }
    if (memory.peakPriceUsd === undefined || price > memory.peakPriceUsd) {
      memory.peakPriceUsd = price;
      this.#dirty.add(name);
    }
  }

  /** Highest sell price per position held; positions no longer held are forgotten. */
  #watchPositions(memory: Memory, name: string, snapshot: Snapshot): void {
    const before = memory.positionPeaks ?? new Map<string, bigint>();
    const peaks = new Map<string, bigint>();
    for (const position of snapshot.positions) {
      const previous = before.get(position.pubkey);
      const price = position.sellPriceMicroUsd;
      const peak = price === null ? previous : previous === undefined || price > previous ? price : previous;
      if (peak !== undefined) peaks.set(position.pubkey, peak);
    }
    if (!samePeaks(before, peaks)) this.#dirty.add(name);
    memory.positionPeaks = peaks;
  }
}

function samePeaks(a: ReadonlyMap<string, bigint>, b: ReadonlyMap<string, bigint>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

/** The stored document: numbers as numbers, prices as decimal text, amounts as base-unit text. */
function toDocument(memory: Memory): object {
  return {
    startedAt: memory.startedAt,
    ...(memory.lastScheduledRun === undefined ? {} : { lastScheduledRun: memory.lastScheduledRun }),
    ...(memory.generation === undefined ? {} : { generation: memory.generation }),
    ...(memory.referencePriceUsd === undefined ? {} : { referencePriceUsd: formatFixed(memory.referencePriceUsd) }),
    ...(memory.armedAmount === undefined ? {} : { armedAmount: memory.armedAmount.toString() }),
    ...(memory.peakPriceUsd === undefined ? {} : { peakPriceUsd: formatFixed(memory.peakPriceUsd) }),
    ...(memory.positionPeaks === undefined || memory.positionPeaks.size === 0
      ? {}
      : { positionPeaks: Object.fromEntries([...memory.positionPeaks].map(([k, v]) => [k, v.toString()])) }),
  };
}

const UNITS = /^\d{1,30}$/;

/**
 * The document back; a field that does not parse is dropped (the strategy re-arms or re-peaks from
 * now, as on a first run) rather than failing the strategy. Without a valid startedAt it is not used.
 */
function fromDocument(doc: Record<string, unknown>): Memory | undefined {
  const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
  const fixed = (v: unknown): Fixed | undefined => (typeof v === 'string' ? parseFixed(v) : undefined);
  const units = (v: unknown): bigint | undefined => (typeof v === 'string' && UNITS.test(v) ? BigInt(v) : undefined);
  const startedAt = int(doc.startedAt);
  if (startedAt === undefined) return undefined;
  const memory: Memory = { startedAt };
  const lastScheduledRun = int(doc.lastScheduledRun);
  if (lastScheduledRun !== undefined) memory.lastScheduledRun = lastScheduledRun;
  const generation = int(doc.generation);
  if (generation !== undefined) {
    memory.generation = generation;
    const reference = fixed(doc.referencePriceUsd);
    const amount = units(doc.armedAmount);
    // Arming is both or neither.
    if (reference !== undefined && amount !== undefined) {
      memory.referencePriceUsd = reference;
      memory.armedAmount = amount;
    }
    const peak = fixed(doc.peakPriceUsd);
    if (peak !== undefined) memory.peakPriceUsd = peak;
  }
  if (typeof doc.positionPeaks === 'object' && doc.positionPeaks !== null) {
    const peaks = new Map<string, bigint>();
    for (const [key, value] of Object.entries(doc.positionPeaks)) {
      const peak = units(value);
      if (peak !== undefined) peaks.set(key, peak);
    }
    memory.positionPeaks = peaks;
  }
  return memory;
}
