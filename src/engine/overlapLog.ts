/**
 * The daemon's side of the overlap warnings (strategies/strategyOverlaps.ts): after each strategy
 * scan, every overlap between running strategies that the last scan did not have is logged once, as
 * `jupbot validate` words it. One that goes away and comes back is news again.
 */
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import { overlapLines, strategyOverlaps } from '../strategies/strategyOverlaps.js';

export interface OverlapLogger {
  warn(obj: object, msg: string): void;
}

/** Returns the check to run after each scan with the strategies then running. */
export function overlapLog(log: OverlapLogger | undefined): (active: ReadonlyMap<string, LoadedStrategy>) => void {
  let reported = new Set<string>();
  return (active) => {
    const overlaps = strategyOverlaps([...active.values()].map((s) => ({ file: s.file, spec: s.spec, tokens: s.tokens })));
    for (const overlap of overlaps) {
      if (reported.has(overlap.key)) continue;
      const [first, ...each] = overlapLines(overlap);
      log?.warn(
        { overlap: overlap.key, strategies: overlap.strategies.map((s) => s.name) },
        `${(first as string).replace(/^warning: /, '')}; ${each.map((line) => line.trim()).join('; ')}`,
      );
    }
    reported = new Set(overlaps.map((o) => o.key));
  };
}
