/**
 * The parts of StrategyState only this process can know, kept in memory per strategy: when it
 * first ran, the last scheduled instant decide() accounted for, and for a price-order the arming
 * (reference price, amount, peak) of the current generation. Everything that must survive a
 * restart — what was done — comes from the journal (strategyProgress.ts) and is merged in here.
 */
import type { Fixed } from '../../strategies/decimal.js';
import type { LoadedStrategy } from '../../strategies/loadedStrategy.js';
import type { Snapshot, StrategyState } from '../../strategies/snapshot.js';
import type { StrategyProgress } from './strategyProgress.js';

interface Memory {
  startedAt: number;
  lastScheduledRun?: number;
  generation?: number;
  referencePriceUsd?: Fixed;
  armedAmount?: bigint;
  peakPriceUsd?: Fixed;
}

export class StrategyMemory {
  readonly #byName = new Map<string, Memory>();

  /** The state for this tick; records the arming and the peak from the snapshot first. */
  state(strategy: LoadedStrategy, progress: StrategyProgress, snapshot: Snapshot, now: number): StrategyState {
    let memory = this.#byName.get(strategy.name);
    if (!memory) {
      memory = { startedAt: now };
      this.#byName.set(strategy.name, memory);
    }
    if (strategy.spec.kind === 'price-order') this.#watch(memory, strategy, progress.generation, snapshot);
    // The journal knows the runs made before a restart; memory knows the ones skipped or held since.
    const lastScheduledRun = Math.max(memory.lastScheduledRun ?? -Infinity, progress.lastScheduledRun ?? -Infinity);
    return {
      startedAt: memory.startedAt,
      ...(Number.isFinite(lastScheduledRun) ? { lastScheduledRun } : {}),
      generation: progress.generation,
      filledRules: progress.filledRules,
      handled: progress.handled,
      notional: progress.notional,
      ...(memory.referencePriceUsd === undefined ? {} : { referencePriceUsd: memory.referencePriceUsd }),
      ...(memory.armedAmount === undefined ? {} : { armedAmount: memory.armedAmount }),
      ...(memory.peakPriceUsd === undefined ? {} : { peakPriceUsd: memory.peakPriceUsd }),
    };
  }

  /** decide()'s `scheduledThrough`: that run (made, skipped or held) is never considered again. */
  scheduled(name: string, through: number | undefined): void {
    const memory = this.#byName.get(name);
    if (memory && through !== undefined) memory.lastScheduledRun = Math.max(memory.lastScheduledRun ?? through, through);
  }

  /** Strategies no longer loaded are forgotten (a re-added one starts afresh). */
  retain(names: ReadonlySet<string>): void {
    for (const name of this.#byName.keys()) if (!names.has(name)) this.#byName.delete(name);
  }

  /**
   * A generation is armed once there is a fresh price and something to sell: its reference price
   * and amount are fixed then, so "+20%" and "25%" do not drift with the price or shrink as rungs
   * sell. The peak only rises within a generation; a new generation starts over.
   */
  #watch(memory: Memory, strategy: LoadedStrategy, generation: number, snapshot: Snapshot): void {
    const sell = strategy.tokens.sell;
    if (!sell) return;
    if (memory.generation !== generation) {
      memory.generation = generation;
      delete memory.referencePriceUsd;
      delete memory.armedAmount;
      delete memory.peakPriceUsd;
    }
    const price = snapshot.prices.get(sell.mint)?.usd;
    if (price === undefined) return;
    const balance = snapshot.balances.get(sell.mint) ?? 0n;
    if (memory.armedAmount === undefined && balance > 0n) {
      memory.armedAmount = balance;
      memory.referencePriceUsd = price;
    }
    memory.peakPriceUsd = memory.peakPriceUsd === undefined || price > memory.peakPriceUsd ? price : memory.peakPriceUsd;
  }
}
