/**
 * The overlap warnings `jupbot validate` and `jupbot plan` print on stderr: two enabled strategies
 * managing the same token or prediction positions (strategies/strategyOverlaps.ts says what counts).
 * A warning, not a problem: the exit code is unchanged. Only files without problems are compared.
 */
import type { FileOutcome } from '../strategies/loadStrategies.js';
import { overlapLines, strategyOverlaps } from '../strategies/strategyOverlaps.js';

/** `failed`: files with problems found apart from their own (a prediction id the API does not know). */
export function overlapWarnings(outcomes: readonly FileOutcome[], failed: ReadonlySet<string> = new Set()): string {
  const candidates = outcomes.flatMap((o) =>
    o.spec !== undefined && o.diagnostics.length === 0 && !failed.has(o.file) ? [{ file: o.file, spec: o.spec, tokens: o.strategy?.tokens }] : [],
  );
  return strategyOverlaps(candidates)
    .flatMap(overlapLines)
    .map((line) => `${line}\n`)
    .join('');
}
