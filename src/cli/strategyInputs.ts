import type { Config } from '../config/config.js';
import type { Diagnostic } from '../config/diagnostics.js';
import { paperTokenSearch } from '../sim/paperTokenSearch.js';
import { readStrategyPaths } from '../engine/strategyFiles.js';
import type { FileOutcome, StrategyFileText } from '../strategies/loadStrategies.js';
import { loadStrategyFiles } from '../strategies/loadStrategies.js';
import { DEFAULT_STRATEGY_LIMITS, strategyLimits } from '../strategies/strategyLimits.js';
import type { TokenSearch } from '../strategies/tokenResolution.js';

export interface StrategyCheck {
  readonly outcomes: readonly FileOutcome[];
  /** The files read, with their text (for checks that point into them later). */
  readonly files: readonly StrategyFileText[];
  /** Paths that do not exist, as `path: message` diagnostics. */
  readonly missing: readonly Diagnostic[];
  /** True when symbols were resolved (paper mode: against the simulator's tokens). */
  readonly resolved: boolean;
}

/**
 * Paper mode resolves against the simulator's catalogue (what paper runs trade). Live and rehearsal
 * modes have no offline answer: symbols are resolved and pinned by the daemon through Jupiter's
 * search, so the CLI checks schema and rules only and says so.
 */
export function offlineTokenSearch(mode: Config['mode'] | undefined): TokenSearch | null {
  return mode === 'live' || mode === 'rehearsal' ? null : paperTokenSearch;
}

/**
 * Reads `paths` (files or directories; default strategies_dir) and checks every strategy file,
 * against the config's limits (the defaults when the config itself did not load).
 */
export async function checkStrategies(paths: readonly string[], cwd: string, config: Pick<Config, 'mode' | 'guard'> | undefined): Promise<StrategyCheck> {
  const { files, missing } = await readStrategyPaths(paths, cwd);
  const search = offlineTokenSearch(config?.mode);
  const outcomes = await loadStrategyFiles(files, search, { get: () => undefined }, config ? strategyLimits(config.guard) : DEFAULT_STRATEGY_LIMITS);
  return {
    outcomes,
    files,
    missing: missing.map((path) => ({ file: path, line: 0, col: 0, message: 'no such file or directory', path: [] })),
    resolved: search !== null,
  };
}
