/**
 * The strategies of `jupbot live check`: every file in `strategies_dir` checked as the daemon will
 * load it, against the live API rather than offline. Its tokens are resolved with Jupiter's token
 * search (what the daemon pins at its first load), and the prediction markets and events it names
 * must exist on Jupiter: a market id that only the simulator knows (the demo strategies') fails
 * here, where `validate` can only say it was not checked.
 */
import { existsSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { formatDiagnostic, sortDiagnostics } from '../config/diagnostics.js';
import type { CliContext } from '../cli/context.js';
import { checkPredictionIds } from '../cli/predictionIdCheck.js';
import { cachedSearch } from '../engine/cachedSearch.js';
import { readStrategyPaths } from '../engine/strategyFiles.js';
import { specAreas } from '../engine/areas/areaNeeds.js';
import { API_AREAS, type ApiArea } from '../jupiter/apiAreas.js';
import { searchTokens } from '../jupiter/tokens.js';
import type { JupiterClient } from '../jupiter/transport.js';
import { loadStrategyFiles, type FileOutcome, type StrategyFileText } from '../strategies/loadStrategies.js';
import { strategyLimits } from '../strategies/strategyLimits.js';
import { failed, passed, type CheckLine } from './checkLine.js';

const NO_PINS = { get: () => undefined };

export interface StrategyFiles {
  readonly files: readonly StrategyFileText[];
  /** Which loaded strategies need each area (enabled ones; by name). */
  readonly needs: ReadonlyMap<ApiArea, readonly string[]>;
  /** The line when the directory is missing or empty, else null. */
  readonly line: CheckLine | null;
}

/** Reads `strategies_dir` and says which API areas its strategies need (their files parsed offline). */
export async function readStrategies(config: Pick<Config, 'strategies_dir' | 'guard'>, cwd: string): Promise<StrategyFiles> {
  const dir = config.strategies_dir;
  if (!existsSync(dir))
    return {
      files: [],
      needs: new Map(),
      line: failed('strategies', `strategies_dir ${dir} does not exist`, 'create it (empty is fine: nothing trades until you copy a strategy in)'),
    };
  const { files } = await readStrategyPaths([dir], cwd);
  if (files.length === 0)
    return { files, needs: new Map(), line: passed('strategies', `no strategy file in ${dir}: nothing will trade until you copy one in (rehearse it first)`) };
  const offline = await loadStrategyFiles(files, null, NO_PINS, strategyLimits(config.guard));
  const users = (area: ApiArea): string[] => offline.flatMap((o) => (o.spec && specAreas(o.spec).includes(area) ? [o.spec.name] : []));
  const needs = new Map(API_AREAS.map((area) => [area, users(area)] as const).filter(([, names]) => names.length > 0));
  return { files, needs, line: null };
}

/**
 * One line per strategy file: ok with its resolved tokens, or failed with its first problem (a file
 * with more has every one listed after the lines, `file:line:col: message`). Also the symbols of the
 * mints resolved.
 */
export async function strategyChecks(
  config: Config,
  ctx: CliContext,
  read: StrategyFiles,
  client: JupiterClient | null,
): Promise<{ lines: CheckLine[]; details: string[]; symbols: Map<string, string> }> {
  const symbols = new Map<string, string>();
  if (read.line !== null) return { lines: [read.line], details: [], symbols };
  if (client === null) {
    const lines = read.files.map((f) =>
      failed(`strategy ${f.file}`, 'not checked against the live token list and markets: no API key', `set ${config.api.key_env}`),
    );
    return { lines, details: [], symbols };
  }
  const search = cachedSearch((query) => searchTokens(client, { query }), ctx.clock);
  const outcomes: readonly FileOutcome[] = await loadStrategyFiles(read.files, search, NO_PINS, strategyLimits(config.guard));
  const ids = await checkPredictionIds(config, ctx, outcomes, read.files);
  const lines: CheckLine[] = [];
  const details: string[] = [];
  for (const outcome of outcomes) {
    const problems = sortDiagnostics([...outcome.diagnostics, ...ids.diagnostics.filter((d) => d.file === outcome.file)]);
    const name = outcome.spec ? `strategy ${outcome.spec.name}` : `strategy ${outcome.file}`;
    if (problems.length > 0) {
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more below)` : '';
      lines.push(
        failed(
          name,
          `${formatDiagnostic(problems[0] ?? { file: outcome.file, line: 0, col: 0, message: '', path: [] })}${more}`,
          'fix the file, or move it out of strategies_dir',
        ),
      );
      if (problems.length > 1) details.push(...problems.map(formatDiagnostic));
      continue;
    }
    if (ids.unchecked !== null && outcome.spec?.kind === 'prediction-exit') {
      lines.push(failed(name, `its market or event was not checked: ${ids.unchecked}`, 'run live check again once Jupiter answers'));
      continue;
    }
    const tokens = Object.values(outcome.strategy?.tokens ?? {}).map((t) => {
      symbols.set(t.mint, t.symbol);
      return `${t.symbol} ${t.mint}`;
    });
    const spec = outcome.spec;
    const what = spec ? `${spec.kind}${spec.enabled ? '' : ', disabled'}` : '';
    lines.push(passed(name, `${outcome.file} (${what})${tokens.length > 0 ? `; tokens: ${tokens.join(', ')}` : ''}`));
  }
  return { lines, details, symbols };
}
